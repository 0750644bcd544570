package io.bamel.inventory.leader;

import java.time.Duration;
import java.util.Locale;

/**
 * What a process may assume about one etcd lease it keeps alive, from the answers etcd gave: pure
 * decision logic over times the caller passes (nanoseconds of one monotonic clock, {@link
 * System#nanoTime()} in production, plain numbers in tests).
 *
 * <p>The lease is lost only when etcd says so ({@link #gone}: a keep-alive answered TTL 0, "lease
 * not found"), or when its life can no longer be confirmed in time. Every answer etcd gives to a
 * grant or keep-alive sent at time {@code s} with TTL {@code t} proves that etcd will not expire
 * the lease before {@code s + t}: etcd handled the request after it was sent, and counts the TTL
 * from then. The latest such bound is the <em>confirmed expiry</em>. The owner acts on the lease
 * only until the confirmed expiry less a safety margin ({@link #verdict}); a failed keep-alive (a
 * member died, a stream broke) changes nothing but the schedule: the next attempt comes after
 * {@link #retryDelay()}, through whichever endpoint the client reaches.
 *
 * <p>Not thread-safe: one owner thread calls it.
 */
public final class LeaseTracker {

  /** What the owner may assume now. */
  public enum Verdict {
    /** etcd confirmed the lease lives past now plus the safety margin: act on it. */
    HELD,
    /**
     * No answer confirmed the lease in time: it may expire within the margin, so stop acting on it,
     * but keep renewing it: etcd may still hold it (and its keys) when it answers again.
     */
    UNCONFIRMED,
    /** etcd said the lease is gone (revoked or expired): its keys are gone too. */
    GONE
  }

  private final long ttl;
  private final long margin;
  private final long retry;

  private long confirmedExpiry;
  private long lastConfirmedSend;
  private long nextRenewal;
  private long lastFailureAt = -1;
  private String lastFailure;
  private String goneReason;

  /**
   * A tracker for a lease of {@code ttl}, acted on until {@code margin} before its confirmed
   * expiry, retried {@code retry} after a failed keep-alive.
   */
  public LeaseTracker(Duration ttl, Duration margin, Duration retry) {
    if (margin.isNegative() || margin.compareTo(ttl) >= 0 || retry.isNegative() || retry.isZero()) {
      throw new IllegalArgumentException("need 0 <= margin < ttl and a positive retry delay");
    }
    this.ttl = ttl.toNanos();
    this.margin = margin.toNanos();
    this.retry = retry.toNanos();
  }

  /**
   * The margin for a TTL: a fifth of it, at least 500 ms (3 s of the default 15 s): the time a
   * leader may still be busy with an action it decided on while its lease was confirmed, and the
   * clock-rate difference between this process and etcd, both far below a second in practice.
   */
  public static Duration marginFor(Duration ttl) {
    Duration fifth = ttl.dividedBy(5);
    return fifth.compareTo(Duration.ofMillis(500)) < 0 ? Duration.ofMillis(500) : fifth;
  }

  /**
   * The delay between keep-alive attempts after a failure: a tenth of the TTL, between 100 ms and
   * 500 ms, so that several attempts (through other endpoints once the client has moved) fit before
   * the margin.
   */
  public static Duration retryFor(Duration ttl) {
    long millis = Math.max(100, Math.min(500, ttl.toMillis() / 10));
    return Duration.ofMillis(millis);
  }

  /** etcd granted the lease for a request sent at {@code sentAt}; renewals are due from now on. */
  public void granted(long sentAt, long ttlSeconds) {
    goneReason = null;
    lastFailure = null;
    lastFailureAt = -1;
    confirmedExpiry = sentAt + Math.min(ttl, Duration.ofSeconds(ttlSeconds).toNanos());
    lastConfirmedSend = sentAt;
    nextRenewal = sentAt + ttl / 3;
  }

  /**
   * etcd renewed the lease (TTL {@code ttlSeconds} &gt; 0) for a keep-alive sent at {@code sentAt}.
   */
  public void renewed(long sentAt, long ttlSeconds) {
    if (goneReason != null) {
      return; // etcd said it is gone: an older answer cannot bring it back
    }
    long expiry = sentAt + Math.min(ttl, Duration.ofSeconds(ttlSeconds).toNanos());
    if (expiry > confirmedExpiry) {
      confirmedExpiry = expiry;
      lastConfirmedSend = sentAt;
    }
    lastFailure = null;
    lastFailureAt = -1;
    nextRenewal = Math.max(nextRenewal, sentAt + ttl / 3);
  }

  /** A keep-alive failed at {@code at} without an answer about the lease; retried soon. */
  public void failed(long at, String error) {
    lastFailure = error;
    lastFailureAt = at;
    nextRenewal = at + retry;
  }

  /** etcd answered at {@code at} that the lease does not exist (revoked, or expired). */
  public void gone(long at) {
    if (goneReason == null) {
      goneReason =
          String.format(
              Locale.ROOT,
              "etcd says the lease is gone (revoked or expired), %s after its last confirmed"
                  + " renewal",
              seconds(at - lastConfirmedSend));
    }
  }

  /** What the owner may assume at {@code now}. */
  public Verdict verdict(long now) {
    if (goneReason != null) {
      return Verdict.GONE;
    }
    return now - stepDownAt() < 0 ? Verdict.HELD : Verdict.UNCONFIRMED;
  }

  /** Whether etcd said the lease is gone. */
  public boolean gone() {
    return goneReason != null;
  }

  /** When the owner must stop acting unless a renewal confirms the lease before then. */
  public long stepDownAt() {
    return confirmedExpiry - margin;
  }

  /** The latest time etcd is known to keep the lease until (the confirmed expiry). */
  public long confirmedExpiry() {
    return confirmedExpiry;
  }

  /**
   * When the next keep-alive is due (a third of the TTL after the last, sooner after a failure).
   */
  public long nextRenewalAt() {
    return nextRenewal;
  }

  /** The delay between attempts after a failure. */
  public Duration retryDelay() {
    return Duration.ofNanos(retry);
  }

  /**
   * Why the owner does not hold the lease at {@code now}, with the time measured since the last
   * renewal etcd confirmed; empty text while it is {@link Verdict#HELD}.
   */
  public String reason(long now) {
    return switch (verdict(now)) {
      case HELD -> "";
      case GONE -> goneReason;
      case UNCONFIRMED ->
          String.format(
              Locale.ROOT,
              "etcd has not confirmed the lease for %s (it lives at least %s past a confirmed"
                  + " renewal; this process stops acting %s before that)%s",
              seconds(now - lastConfirmedSend),
              seconds(ttl),
              seconds(margin),
              lastFailure == null
                  ? ""
                  : "; last keep-alive failure "
                      + seconds(now - lastFailureAt)
                      + " ago: "
                      + lastFailure);
    };
  }

  private static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
  }
}
