package io.bamel.pool;

import java.time.Duration;
import java.time.Instant;

/**
 * The "holds for its duration" rule of a trigger: a trigger votes once its condition has held in
 * every evaluation since a moment at least {@code duration} ago; one evaluation where it does not
 * hold (or cannot be evaluated) starts the window again. Pure.
 */
public final class TriggerWindow {

  private TriggerWindow() {}

  /** The start of the window after an evaluation at {@code now} (null: not holding). */
  public static Instant next(Instant holdingSince, boolean holds, Instant now) {
    if (!holds) {
      return null;
    }
    return holdingSince == null ? now : holdingSince;
  }

  /** Whether a window that started at {@code holdingSince} votes at {@code now}. */
  public static boolean votes(Instant holdingSince, Duration duration, Instant now) {
    if (holdingSince == null) {
      return false;
    }
    Duration d = duration == null ? Duration.ZERO : duration;
    return !now.isBefore(holdingSince.plus(d));
  }

  /**
   * Whether the values hold against {@code threshold}: for {@code up}, some value is above it; for
   * {@code down}, there is at least one value and every one is below it. NaN never holds.
   */
  public static boolean holds(java.util.List<Double> values, double threshold, boolean up) {
    if (up) {
      return values.stream().anyMatch(v -> v > threshold);
    }
    return !values.isEmpty() && values.stream().allMatch(v -> v < threshold);
  }
}
