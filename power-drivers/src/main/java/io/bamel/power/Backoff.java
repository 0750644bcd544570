package io.bamel.power;

import java.time.Duration;
import java.util.Optional;

/**
 * Exponential backoff between attempts of a call a BMC answered with "busy". Pure: it decides the
 * delay, the caller sleeps.
 *
 * @param initial the delay before the second attempt
 * @param max the largest delay
 * @param maxAttempts the most attempts in all (the first included)
 */
public record Backoff(Duration initial, Duration max, int maxAttempts) {

  /** 200 ms doubling up to 5 s, 6 attempts. */
  public static final Backoff DEFAULT =
      new Backoff(Duration.ofMillis(200), Duration.ofSeconds(5), 6);

  /**
   * The delay before attempt {@code attempt} (2 for the first retry), or empty when no attempt is
   * left: past {@code maxAttempts}, or when the delay would not leave time before the deadline.
   */
  public Optional<Duration> delayBefore(int attempt, Duration remaining) {
    if (attempt > maxAttempts) {
      return Optional.empty();
    }
    Duration delay = initial;
    for (int i = 2; i < attempt && delay.compareTo(max) < 0; i++) {
      delay = delay.multipliedBy(2);
    }
    if (delay.compareTo(max) > 0) {
      delay = max;
    }
    return delay.compareTo(remaining) < 0 ? Optional.of(delay) : Optional.empty();
  }
}
