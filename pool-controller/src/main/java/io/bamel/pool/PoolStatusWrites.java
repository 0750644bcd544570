package io.bamel.pool;

import io.bamel.inventory.model.PoolStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * When a new pool status is worth an etcd write. A pool's utilization moves a little at almost
 * every cycle (every 15 s), and every write stays in etcd's history until the next compaction: at
 * 100 pools that is 400 writes a minute of numbers that moved by a fraction of a point. A status
 * whose only difference from the one last written is its utilization is written when some
 * resource's utilization moved by more than {@code utilizationTolerance} (a ratio: 0.02 is 2
 * percentage points), when a resource appears or disappears, or when the status last written is
 * {@code maxAge} old or older (so a slow drift is refreshed). Any other difference (counts, nodes
 * in transition, resources, conditions, the memory, the last decision) is written at once, and an
 * unchanged status never. Between writes, the exact utilization is in the {@code
 * bamel_pool_utilization_ratio} gauge (the pool controller's memory, not etcd). Pure.
 *
 * @param utilizationTolerance how far a resource's utilization must move to be written (0 to 1)
 * @param maxAge the longest a written status stands while its utilization moves (zero: every change
 *     is written)
 */
public record PoolStatusWrites(double utilizationTolerance, Duration maxAge) {

  /** 2 percentage points, 5 minutes. */
  public static final PoolStatusWrites DEFAULTS = new PoolStatusWrites(0.02, Duration.ofMinutes(5));

  /** Every change is written (the behaviour before this rule; tests and benchmarks). */
  public static final PoolStatusWrites EVERY_CHANGE = new PoolStatusWrites(0, Duration.ZERO);

  /** Absorbs binary rounding: utilization is stored to 4 decimals, so 0.50 - 0.48 is 2 points. */
  private static final double ROUNDING = 1e-9;

  /** Checks the bounds. */
  public PoolStatusWrites {
    Objects.requireNonNull(maxAge, "maxAge");
    if (!(utilizationTolerance >= 0 && utilizationTolerance <= 1)) {
      throw new IllegalArgumentException(
          "utilizationTolerance must be 0 to 1, not " + utilizationTolerance);
    }
    if (maxAge.isNegative()) {
      throw new IllegalArgumentException("maxAge must not be negative, not " + maxAge);
    }
  }

  /**
   * Whether {@code next} should replace {@code written} in etcd.
   *
   * @param written the status last written (null: none known, so write)
   * @param writtenAt when it was written (null: unknown, as after a restart: any change is written)
   * @param next the status the cycle computed
   * @param now the cycle's time
   */
  public boolean due(PoolStatus written, Instant writtenAt, PoolStatus next, Instant now) {
    if (written == null) {
      return true;
    }
    if (next.equals(written)) {
      return false;
    }
    if (!next.toBuilder().utilization(written.utilization()).build().equals(written)) {
      return true; // something besides utilization changed
    }
    if (writtenAt == null || !writtenAt.plus(maxAge).isAfter(now)) {
      return true;
    }
    return moved(written.utilization(), next.utilization());
  }

  private boolean moved(Map<String, Double> before, Map<String, Double> after) {
    if (!before.keySet().equals(after.keySet())) {
      return true;
    }
    for (Map.Entry<String, Double> e : after.entrySet()) {
      Double old = before.get(e.getKey());
      if (old == null || e.getValue() == null) {
        if (old != e.getValue()) {
          return true;
        }
      } else if (!(Math.abs(e.getValue() - old) <= utilizationTolerance + ROUNDING)) {
        return true;
      }
    }
    return false;
  }
}
