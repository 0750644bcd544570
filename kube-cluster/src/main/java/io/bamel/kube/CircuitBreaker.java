package io.bamel.kube;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * A circuit breaker over calls to the API server, as a pure state machine on a clock.
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
 * <p>A success in any state closes it and clears the count. {@link #fresh()} says whether the
 * latest call answered: the breaker is closed and no failure has followed the last success.
 * Thread-safe (synchronized): callers report each allowed call's outcome with {@link #success()} or
 * {@link #failure()}.
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

  private final Clock clock;
  private final int threshold;
  private final Duration openFor;

  private State state = State.CLOSED;
  private int failures;
  private Instant openedAt;
  private boolean probing;

  /**
   * A closed breaker opening after {@code threshold} (at least 1) consecutive failures, for {@code
   * openFor}.
   */
  public CircuitBreaker(Clock clock, int threshold, Duration openFor) {
    if (threshold < 1) {
      throw new IllegalArgumentException("threshold must be at least 1: " + threshold);
    }
    this.clock = clock;
    this.threshold = threshold;
    this.openFor = openFor;
  }

  /** Whether a call may go now; in half-open, true for the one probe only. */
  public synchronized boolean allow() {
    switch (state) {
      case CLOSED -> {
        return true;
      }
      case OPEN -> {
        if (clock.instant().isBefore(openedAt.plus(openFor))) {
          return false;
        }
        state = State.HALF_OPEN;
        probing = true;
        return true;
      }
      default -> {
        if (probing) {
          return false;
        }
        probing = true;
        return true;
      }
    }
  }

  /** The allowed call was answered: closes the breaker. */
  public synchronized void success() {
    state = State.CLOSED;
    failures = 0;
    probing = false;
  }

  /** The allowed call got no answer (or a 5xx): counts, and opens the breaker at the threshold. */
  public synchronized void failure() {
    failures++;
    if (state == State.HALF_OPEN || failures >= threshold) {
      state = State.OPEN;
      openedAt = clock.instant();
      probing = false;
    }
  }

  /** The state now (an open breaker whose delay has passed still reads open until asked). */
  public synchronized State state() {
    return state;
  }

  /** Whether the latest call answered: closed, with no failure since the last success. */
  public synchronized boolean fresh() {
    return state == State.CLOSED && failures == 0;
  }

  /** A person's text for a refused call: how many failures, and when the next probe may go. */
  public synchronized String verdict() {
    if (state == State.CLOSED) {
      return failures + " consecutive failure(s)";
    }
    Duration left =
        openedAt == null
            ? Duration.ZERO
            : Duration.between(clock.instant(), openedAt.plus(openFor));
    return "Kubernetes unreachable: circuit open after "
        + Math.max(failures, 1)
        + " consecutive failed call(s); next probe in "
        + Math.max(0, left.toMillis())
        + " ms";
  }
}
