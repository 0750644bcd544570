package io.bamel.inventory.runtime;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The one retry-delay policy of the inventory side (the store's compare-and-swap retries, the
 * cache's watch reconnects, the API's read-decide-write retries, the node controller's requeues):
 * {@code initial} doubling per attempt up to {@code max}, optionally with full jitter (a random
 * delay between zero and that ceiling, so that racing writers spread out). {@link #delay} is pure
 * given its random source; {@link #pause} sleeps. The power drivers keep their own {@code
 * io.bamel.power.Backoff} (a BMC's "busy" answers, bounded by attempts and a deadline) because
 * power-drivers depends on nothing of the inventory.
 *
 * @param initial the ceiling of the first retry's delay
 * @param max the largest delay
 * @param jitter whether a delay is drawn uniformly from zero to its ceiling
 */
public record Backoff(Duration initial, Duration max, boolean jitter) {

  /** A lost compare-and-swap: jittered, 2 ms doubling to 50 ms. */
  public static final Backoff CONFLICT =
      new Backoff(Duration.ofMillis(2), Duration.ofMillis(50), true);

  /** Checks the bounds. */
  public Backoff {
    if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("backoff needs 0 < initial <= max");
    }
  }

  /** The ceiling of the delay before retry {@code attempt} (0 for the first retry). */
  public Duration ceiling(int attempt) {
    long millis = initial.toMillis() << Math.min(Math.max(attempt, 0), 30);
    return millis <= 0 || millis > max.toMillis() ? max : Duration.ofMillis(millis);
  }

  /** The delay before retry {@code attempt}: the ceiling, or a random share of it with jitter. */
  public Duration delay(int attempt) {
    Duration ceiling = ceiling(attempt);
    return jitter
        ? Duration.ofMillis(ThreadLocalRandom.current().nextLong(ceiling.toMillis() + 1))
        : ceiling;
  }

  /**
   * Sleeps {@link #delay(int)}.
   *
   * @throws InterruptedException when interrupted (the interrupt flag is left cleared, as {@link
   *     Thread#sleep} leaves it)
   */
  public void pause(int attempt) throws InterruptedException {
    Thread.sleep(delay(attempt).toMillis());
  }
}
