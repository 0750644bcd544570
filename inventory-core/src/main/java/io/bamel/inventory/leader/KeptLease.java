package io.bamel.inventory.leader;

import io.bamel.inventory.leader.LeaseTracker.Verdict;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.common.exception.EtcdException;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One etcd lease kept alive for an owner that puts keys under it (a leader candidate, a registered
 * replica), and the owner's view of whether it still holds it.
 *
 * <p>The owner {@link #grant}s a lease when {@link #needsGrant()}. From then on this class sends a
 * keep-alive ({@code Lease.keepAliveOnce}) every third of the TTL, on the owner's thread (the
 * scheduler given), and records every answer in a {@link LeaseTracker}. A failed keep-alive (the
 * member it went to died, a stream broke, etcd had no leader) is retried within a fraction of a
 * second, through whichever endpoint the client reaches by then; it does not lose the lease. The
 * lease is lost when etcd says so (the keep-alive answers TTL 0: revoked or expired), and the owner
 * stops acting on it when no answer has confirmed it until its confirmed expiry less a safety
 * margin ({@link #held()} false); it keeps renewing it then, and holds it again when etcd answers
 * in time. Whenever that changes, {@code onChange} runs on the owner's thread.
 *
 * <p>{@link #drop()} stops renewing and revokes the lease (best effort), which deletes the keys
 * under it at once. {@link #grant}, {@link #drop}, {@link #close}, {@link #id} and {@link
 * #markLost} are called on the owner's thread only; {@link #held()}, {@link #overdue()} and {@link
 * #reason()} from any thread.
 *
 * <p>Hand-written rather than jetcd's {@code Lease.keepAlive} observer: that one decides by itself
 * when to renew and reports a failed stream as an error, where this class needs the send time of
 * every answered renewal (the confirmed expiry) and must tell "etcd said the lease is gone" from
 * "no answer yet" ({@link LeaderElection} says more).
 */
public final class KeptLease implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(KeptLease.class);
  private static final Duration MAX_ATTEMPT = Duration.ofSeconds(2);

  private final Client client;
  private final Duration ttl;
  private final Duration timeout;
  private final ScheduledExecutorService ownerThread;
  private final Runnable onChange;

  // Owner thread only, except where volatile.
  private volatile long id;
  private LeaseTracker tracker;
  private volatile boolean lost;
  private volatile boolean closed;
  // The tracker's verdict, published for other threads after every change.
  private volatile long stepDownAt;
  private volatile boolean goneInEtcd;
  private Verdict reported = Verdict.GONE;
  private ScheduledFuture<?> wakeUp;
  private boolean inFlight;

  /**
   * A lease of {@code ttl} (whole seconds, at least 1 s) whose grant waits at most {@code timeout};
   * its keep-alives run on {@code ownerThread}, and {@code onChange} runs there whenever the lease
   * stops or starts being {@link #held()}. Nothing is granted until {@link #grant()}.
   */
  public KeptLease(
      Client client,
      Duration ttl,
      Duration timeout,
      ScheduledExecutorService ownerThread,
      Runnable onChange) {
    if (ttl.toSeconds() < 1) {
      throw new IllegalArgumentException("the lease TTL must be at least 1 s");
    }
    this.client = client;
    this.ttl = Duration.ofSeconds(ttl.toSeconds());
    this.timeout = timeout;
    this.ownerThread = ownerThread;
    this.onChange = onChange;
  }

  /** Whether there is no lease to renew: none granted yet, dropped, or gone in etcd. */
  public boolean needsGrant() {
    return id == 0 || lost || goneInEtcd;
  }

  /**
   * Drops any previous lease and grants a new one, kept alive from now on; returns its id.
   *
   * @throws IllegalStateException when etcd does not grant it within the timeout
   */
  public long grant() {
    drop();
    long sentAt = System.nanoTime();
    var granted = EtcdRequests.await(client.getLeaseClient().grant(ttl.toSeconds()), timeout);
    LeaseTracker t = new LeaseTracker(ttl, LeaseTracker.marginFor(ttl), LeaseTracker.retryFor(ttl));
    t.granted(sentAt, granted.getTTL());
    tracker = t;
    publish();
    lost = false;
    id = granted.getID();
    reported = Verdict.HELD;
    schedule(System.nanoTime());
    return id;
  }

  /** The current lease's id; 0 when none is held. */
  public long id() {
    return id;
  }

  /**
   * Marks the lease lost (the owner found its key gone): the next {@link #needsGrant()} is true.
   */
  public void markLost() {
    lost = true;
  }

  /** Whether etcd has confirmed the lease past now plus the safety margin: act on its keys. */
  public boolean held() {
    return id != 0 && !lost && !goneInEtcd && System.nanoTime() - stepDownAt < 0;
  }

  /** Whether the lease is not {@link #held()}: keys under it may be gone, or soon be. */
  public boolean overdue() {
    return !held();
  }

  /** Whether etcd said the lease is gone (or the owner marked it lost): a new one is needed. */
  public boolean gone() {
    return lost || goneInEtcd;
  }

  /**
   * Why the lease is not {@link #held()}, naming the time measured since its last confirmed
   * renewal; empty while it is held. On the owner's thread.
   */
  public String reason() {
    LeaseTracker t = tracker;
    if (id == 0 || t == null) {
      return "no lease";
    }
    if (lost) {
      return "the keys under the lease are gone";
    }
    return t.reason(System.nanoTime());
  }

  /** Stops renewing and revokes the lease (best effort), which deletes the keys put under it. */
  public void drop() {
    if (wakeUp != null) {
      wakeUp.cancel(false);
      wakeUp = null;
    }
    inFlight = false;
    if (id != 0) {
      long dropped = id;
      id = 0;
      tracker = null;
      goneInEtcd = false;
      stepDownAt = 0;
      try {
        client.getLeaseClient().revoke(dropped).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (Exception e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        LOG.debug("revoking lease {} failed: {}", Long.toHexString(dropped), e.toString());
      }
    }
  }

  /** Drops the lease for good: later answers are ignored. */
  @Override
  public void close() {
    closed = true;
    drop();
  }

  // ---------------------------------------------------------------- renewals, on the owner thread

  /** Runs {@link #step} at the next renewal or step-down time, whichever comes first. */
  private void schedule(long now) {
    LeaseTracker t = tracker;
    if (wakeUp != null) {
      wakeUp.cancel(false);
      wakeUp = null;
    }
    if (closed || t == null || reported == Verdict.GONE) {
      return; // nothing to renew; the owner grants a new lease
    }
    long at;
    if (reported == Verdict.HELD) {
      // the next keep-alive, and in any case the step-down time, to tell the owner in time
      at = inFlight ? t.stepDownAt() : Math.min(t.nextRenewalAt(), t.stepDownAt());
    } else if (inFlight) {
      return; // the answer (or its deadline) schedules the next step
    } else {
      at = t.nextRenewalAt();
    }
    long delay = Math.max(0, at - now);
    long lease = id;
    try {
      wakeUp = ownerThread.schedule(() -> step(lease), delay, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      // the owner is closing
    }
  }

  private void step(long lease) {
    if (closed || lease != id || lost) {
      return;
    }
    long now = System.nanoTime();
    if (!inFlight && now >= tracker.nextRenewalAt()) {
      renew(lease, now);
    }
    report(now);
    schedule(now);
  }

  private void renew(long lease, long sentAt) {
    inFlight = true;
    CompletableFuture<LeaseKeepAliveResponse> answer;
    try {
      answer = client.getLeaseClient().keepAliveOnce(lease);
    } catch (RuntimeException e) {
      answer = CompletableFuture.failedFuture(e);
    }
    answer
        .orTimeout(attemptDeadline().toMillis(), TimeUnit.MILLISECONDS)
        .whenComplete(
            (response, error) -> {
              try {
                ownerThread.execute(() -> answered(lease, sentAt, response, error));
              } catch (RejectedExecutionException e) {
                // the owner is closing
              }
            });
  }

  private void answered(long lease, long sentAt, LeaseKeepAliveResponse response, Throwable error) {
    if (closed || lease != id) {
      return;
    }
    inFlight = false;
    long now = System.nanoTime();
    if (error == null && response.getTTL() > 0) {
      tracker.renewed(sentAt, response.getTTL());
    } else if (error == null || leaseNotFound(error)) {
      tracker.gone(now);
    } else {
      Throwable cause = unwrap(error);
      String why =
          cause instanceof TimeoutException
              ? "no answer within " + attemptDeadline().toMillis() + " ms"
              : cause.toString();
      LOG.debug("keep-alive of lease {} failed: {}", Long.toHexString(lease), why);
      tracker.failed(now, why);
    }
    report(now);
    schedule(now);
  }

  /** Tells the owner when the verdict changed since it was last told. */
  private void report(long now) {
    publish();
    Verdict v = tracker.verdict(now);
    if (v != reported) {
      reported = v;
      try {
        ownerThread.execute(onChange); // after this step, not inside it
      } catch (RejectedExecutionException e) {
        // the owner is closing
      }
    }
  }

  private void publish() {
    stepDownAt = tracker.stepDownAt();
    goneInEtcd = tracker.gone();
  }

  /** Short, so that a keep-alive stuck on a dying connection is retried well before the margin. */
  private Duration attemptDeadline() {
    return min(min(timeout, ttl.dividedBy(3)), MAX_ATTEMPT);
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static boolean leaseNotFound(Throwable error) {
    Throwable e = unwrap(error);
    if (e instanceof EtcdException etcd
        && etcd.getErrorCode() == io.etcd.jetcd.common.exception.ErrorCode.NOT_FOUND) {
      return true;
    }
    return String.valueOf(e.getMessage()).contains("requested lease not found");
  }

  private static Throwable unwrap(Throwable error) {
    Throwable e = error;
    while ((e instanceof CompletionException || e instanceof ExecutionException)
        && e.getCause() != null) {
      e = e.getCause();
    }
    return e;
  }
}
