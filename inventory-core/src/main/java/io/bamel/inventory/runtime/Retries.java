package io.bamel.inventory.runtime;

import dev.failsafe.CircuitBreaker;
import dev.failsafe.Execution;
import dev.failsafe.RetryPolicy;
import dev.failsafe.RetryPolicyBuilder;
import java.time.Duration;

/**
 * The retry and breaker policies of every module that may depend on {@code inventory-core}, built
 * on Failsafe in this one place: a use site names only its parameters (and, for a retry policy,
 * which failures it retries). The BMC drivers build theirs in {@code io.bamel.power.Backoff}
 * because {@code power-drivers} depends on nothing of the inventory (docs/architecture.md, "Retries
 * and breakers").
 *
 * <p>A loop that sleeps in its own way (its own interrupt handling, deadline or fake sleeper) keeps
 * its loop and takes its delays from a Failsafe {@link Execution} (Failsafe's standalone
 * execution); a caller that schedules the retry itself asks {@link #delayAfter}.
 */
public final class Retries {

  /** Failures beyond this many add nothing to a backoff: 2^64 times any delay is past any cap. */
  private static final int SATURATED = 64;

  /** The failure recorded to step a standalone execution; never thrown. */
  private static final RuntimeException FAILED = new RuntimeException("failed");

  private Retries() {}

  /**
   * A lost compare-and-swap: full jitter, each delay drawn uniformly from zero to a ceiling that
   * starts at 2 ms and doubles up to 50 ms, so that racing writers spread out; at most {@code
   * maxRetries} retries. Failsafe's jitter factor 1 draws from 0 to twice the backoff's delay, so
   * the backoff runs at half the ceiling (1 ms doubling to 25 ms).
   */
  public static <R> RetryPolicyBuilder<R> conflict(int maxRetries) {
    return RetryPolicy.<R>builder()
        .withBackoff(Duration.ofMillis(1), Duration.ofMillis(25))
        .withJitter(1.0)
        .withMaxRetries(maxRetries);
  }

  /**
   * Reconnecting to a server: {@code first} doubling up to {@code max}, without jitter (one
   * process, one stream), without end.
   */
  public static <R> RetryPolicyBuilder<R> reconnect(Duration first, Duration max) {
    return doubling(RetryPolicy.<R>builder(), first, max).withMaxRetries(-1);
  }

  /**
   * Work put back after a failure: {@code base} doubling per consecutive failure up to {@code max},
   * each delay varied by 20 % either way (so that nodes failing together spread out), without end.
   * Failsafe does not cap a jittered delay: a caller that must never wait past {@code max} caps it.
   */
  public static <R> RetryPolicyBuilder<R> requeue(Duration base, Duration max) {
    return doubling(RetryPolicy.<R>builder(), base, max).withJitter(0.2).withMaxRetries(-1);
  }

  /**
   * A remote call: {@code attempts} tries in all (at least 1), pauses from {@code first} doubling
   * up to {@code max} (a server's own {@code Retry-After} is the caller's to honour instead).
   */
  public static <R> RetryPolicyBuilder<R> remoteCall(int attempts, Duration first, Duration max) {
    return doubling(RetryPolicy.<R>builder(), first, max).withMaxAttempts(Math.max(1, attempts));
  }

  /**
   * A breaker over a remote server: {@code threshold} consecutive failures (at least 1) open it for
   * {@code openFor}; then one probe goes through, whose success closes it and whose failure opens
   * it again.
   */
  public static <R> CircuitBreaker<R> breaker(int threshold, Duration openFor) {
    if (threshold < 1) {
      throw new IllegalArgumentException("threshold must be at least 1: " + threshold);
    }
    return CircuitBreaker.<R>builder()
        .withFailureThreshold(threshold)
        .withSuccessThreshold(1)
        .withDelay(openFor)
        .build();
  }

  /**
   * The delay {@code policy} sets after {@code failures} consecutive failures (at least 1), for a
   * caller that schedules the retry itself; zero when the policy allows no further retry. Pure but
   * for the policy's jitter.
   */
  public static Duration delayAfter(RetryPolicy<?> policy, int failures) {
    @SuppressWarnings("unchecked")
    Execution<Object> execution = Execution.of((RetryPolicy<Object>) policy);
    for (int i = 0; i < Math.min(Math.max(failures, 1), SATURATED); i++) {
      execution.recordException(FAILED);
      if (execution.isComplete()) {
        return Duration.ZERO;
      }
    }
    return execution.getDelay();
  }

  /**
   * Sleeps {@link #delayAfter}, for a retry loop of a caller's own.
   *
   * @throws InterruptedException when interrupted (the flag left cleared, as {@link Thread#sleep}
   *     leaves it)
   */
  public static void pause(RetryPolicy<?> policy, int failures) throws InterruptedException {
    Thread.sleep(delayAfter(policy, failures));
  }

  /** Doubling from {@code first} to {@code max}, or a fixed {@code first} when they meet. */
  private static <R> RetryPolicyBuilder<R> doubling(
      RetryPolicyBuilder<R> builder, Duration first, Duration max) {
    if (first.isNegative() || first.isZero() || max.compareTo(first) < 0) {
      throw new IllegalArgumentException("backoff needs 0 < first <= max: " + first + ", " + max);
    }
    return max.equals(first) ? builder.withDelay(first) : builder.withBackoff(first, max);
  }
}
