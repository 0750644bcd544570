package io.bamel.kube;

import io.bamel.inventory.runtime.Retries;
import java.time.Duration;

/**
 * The circuit breaker over calls to the API server: Failsafe's ({@link Retries#breaker}), with what
 * {@link Fabric8Cluster} reads of it besides.
 *
 * <ul>
 *   <li>{@link State#CLOSED}: calls go through. {@code threshold} consecutive failures (no answer,
 *       a timeout, a 5xx) open it.
 *   <li>{@link State#OPEN}: calls are refused at once ({@link #allow()} is false) until {@code
 *       openFor} has passed since it opened.
 *   <li>{@link State#HALF_OPEN}: after that delay one call, the probe, goes through; the others are
 *       still refused. The probe's success closes the breaker, its failure opens it again for
 *       {@code openFor}.
 * </ul>
 *
 * <p>{@link #fresh()} says whether the latest call answered: the breaker is closed and no failure
 * has followed the last success (Failsafe counts failures in a window, not since the last success,
 * so this class keeps that one fact). Failsafe times the open delay on {@code System.nanoTime()}
 * and takes no clock; tests stand in for the delay's end with {@link #delayPassed()}. Thread-safe:
 * callers report each allowed call's outcome with {@link #success()} or {@link #failure()}.
 */
public final class CircuitBreaker {

  /** Where the breaker stands. */
  public enum State {
    /** Calls go through. */
    CLOSED,
    /** Calls fail fast. */
    OPEN,
    /** One probe call goes through. */
    HALF_OPEN
  }

  private final dev.failsafe.CircuitBreaker<Object> breaker;
  private int consecutiveFailures;

  /**
   * A closed breaker opening after {@code threshold} (at least 1) consecutive failures, for {@code
   * openFor}.
   */
  public CircuitBreaker(int threshold, Duration openFor) {
    this.breaker = Retries.breaker(threshold, openFor);
  }

  /** Whether a call may go now; in half-open, true for the one probe only. */
  public boolean allow() {
    return breaker.tryAcquirePermit();
  }

  /** The allowed call was answered: closes the breaker. */
  public synchronized void success() {
    consecutiveFailures = 0;
    breaker.recordSuccess();
  }

  /** The allowed call got no answer (or a 5xx): counts, and opens the breaker at the threshold. */
  public synchronized void failure() {
    consecutiveFailures++;
    breaker.recordFailure();
  }

  /** The state now (an open breaker whose delay has passed still reads open until asked). */
  public State state() {
    return switch (breaker.getState()) {
      case CLOSED -> State.CLOSED;
      case OPEN -> State.OPEN;
      case HALF_OPEN -> State.HALF_OPEN;
    };
  }

  /** Whether the latest call answered: closed, with no failure since the last success. */
  public synchronized boolean fresh() {
    return breaker.isClosed() && consecutiveFailures == 0;
  }

  /** A person's text for a refused call: how many failures, and when the next probe may go. */
  public synchronized String verdict() {
    if (breaker.isClosed()) {
      return consecutiveFailures + " consecutive failure(s)";
    }
    long leftMs = (breaker.getRemainingDelay().toNanos() + 999_999) / 1_000_000;
    return "Kubernetes unreachable: circuit open after "
        + Math.max(consecutiveFailures, 1)
        + " consecutive failed call(s); next probe in "
        + leftMs
        + " ms";
  }

  /** Ends the open delay now, as its passing would (tests: Failsafe's delay takes no clock). */
  void delayPassed() {
    breaker.halfOpen();
  }
}
