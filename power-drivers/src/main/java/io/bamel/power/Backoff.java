package io.bamel.power;

import dev.failsafe.Execution;
import dev.failsafe.RetryPolicy;
import java.time.Duration;
import java.util.Optional;

/**
 * Retries of a call a BMC answered with "busy": the drivers' one retry policy, on Failsafe ({@link
 * #policy()}: {@code initial} doubling up to {@code max}, at most {@code maxAttempts} attempts).
 * The inventory side builds its policies in {@code io.bamel.inventory.runtime.Retries}; this module
 * may not depend on that one, so it names its own (docs/architecture.md, "Retries and breakers").
 * The driver keeps its loop and its sleeper (a fake one in tests) and asks {@link #delayBefore} for
 * the delay, which Failsafe's standalone execution computes.
 *
 * @param initial the delay before the second attempt
 * @param max the largest delay
 * @param maxAttempts the most attempts in all (the first included)
 */
public record Backoff(Duration initial, Duration max, int maxAttempts) {

  /** 200 ms doubling up to 5 s, 6 attempts. */
  public static final Backoff DEFAULT =
      new Backoff(Duration.ofMillis(200), Duration.ofSeconds(5), 6);

  /** Failures beyond this many add nothing: 2^64 times any delay is past any cap. */
  private static final int SATURATED = 64;

  /** The failure recorded to step the standalone execution; never thrown. */
  private static final RuntimeException BUSY = new RuntimeException("busy");

  /** Checks the bounds. */
  public Backoff {
    if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("backoff needs 0 < initial <= max");
    }
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("backoff needs at least one attempt: " + maxAttempts);
    }
  }

  /** This backoff as a Failsafe retry policy (every failure retried, within the attempts). */
  public RetryPolicy<Object> policy() {
    var builder = RetryPolicy.builder();
    builder = max.equals(initial) ? builder.withDelay(initial) : builder.withBackoff(initial, max);
    return builder.withMaxAttempts(maxAttempts).build();
  }

  /**
   * The delay before attempt {@code attempt} (2 for the first retry), or empty when no attempt is
   * left: past {@code maxAttempts}, or when the delay would not leave time before the deadline.
   */
  public Optional<Duration> delayBefore(int attempt, Duration remaining) {
    Execution<Object> execution = Execution.of(policy());
    for (int failed = 0; failed < Math.min(Math.max(attempt - 1, 1), SATURATED); failed++) {
      execution.recordException(BUSY);
      if (execution.isComplete()) {
        return Optional.empty();
      }
    }
    Duration delay = execution.getDelay();
    return delay.compareTo(remaining) < 0 ? Optional.of(delay) : Optional.empty();
  }
}
