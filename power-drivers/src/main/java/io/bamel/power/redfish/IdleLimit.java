package io.bamel.power.redfish;

import java.time.Duration;

/**
 * How long a connection to one BMC may stay idle and still be reused: learnt from the BMC. It
 * starts at the configured keep-alive ({@link RedfishConfig#keepAlive()}). When a request fails on
 * a pooled connection that had been idle for {@code t}, the BMC closes connections idle that long
 * (its keep-alive timeout is at most {@code t}), so the limit becomes {@code t / 2}, never above
 * what it was and never below {@link #FLOOR}: one failed attempt teaches the driver to open a new
 * connection instead of reusing one the BMC has closed ({@link RedfishHttp} then keeps the BMC's
 * idle connections no longer than the limit). A failure on a connection idle for less than the
 * floor (the BMC closed it for another reason, after its {@code MaxKeepAliveRequests}, say) teaches
 * nothing. A BMC that announces its idle timeout {@code t} ({@code Keep-Alive: timeout=N}, read by
 * {@link KeepAliveHeader}) teaches the same {@code t / 2} before any request fails ({@link
 * #announced}). Pure decision logic; thread-safe.
 */
final class IdleLimit {

  /** The shortest limit learnt: below it a closed connection is not the idle timeout's doing. */
  static final Duration FLOOR = Duration.ofMillis(100);

  private volatile Duration limit;

  /** Starts at {@code initial} (the configured keep-alive). */
  IdleLimit(Duration initial) {
    if (initial.isNegative() || initial.isZero()) {
      throw new IllegalArgumentException("the initial idle limit must be positive");
    }
    this.limit = initial;
  }

  /** The current limit: a connection idle this long or longer is not reused. */
  Duration current() {
    return limit;
  }

  /**
   * Whether a request made {@code sinceLastRequest} after the BMC's last one is a lone request, not
   * part of a burst: no connection idle that long may be reused, and none left after it is likely
   * to be (the node controller reads a BMC once a pass, a minute apart), so it goes on a connection
   * of its own, closed after the answer, and the pool holds nothing for the BMC.
   */
  boolean lone(Duration sinceLastRequest) {
    return sinceLastRequest.compareTo(limit) >= 0;
  }

  /**
   * A request failed on a reused connection that had been idle for {@code idle}; returns whether
   * the limit went down.
   */
  synchronized boolean closedAfter(Duration idle) {
    if (idle.compareTo(FLOOR) < 0) {
      return false;
    }
    return atMostHalfOf(idle);
  }

  /**
   * The BMC announced that it closes connections idle for {@code timeout}; returns whether the
   * limit went down (to half of it, at least {@link #FLOOR}: the BMC's clock starts when it has
   * written its answer, a little before the driver releases the connection).
   */
  synchronized boolean announced(Duration timeout) {
    if (timeout.isNegative() || timeout.isZero()) {
      return false;
    }
    return atMostHalfOf(timeout);
  }

  private boolean atMostHalfOf(Duration idle) {
    Duration half = idle.dividedBy(2);
    Duration next = half.compareTo(FLOOR) < 0 ? FLOOR : half;
    if (next.compareTo(limit) >= 0) {
      return false;
    }
    limit = next;
    return true;
  }
}
