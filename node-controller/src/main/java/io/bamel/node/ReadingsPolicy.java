package io.bamel.node;

import io.bamel.inventory.model.NodeReadings;
import java.time.Duration;
import java.time.Instant;

/**
 * When a new power reading is worth an etcd write. Every write stays in etcd's history until the
 * next compaction and wakes every watcher, so at 100,000 nodes a write per node per poll would be
 * 1,700 writes a second of unchanged numbers. A reading is written when there is none stored, when
 * it differs from the stored one by more than {@code absoluteWatts} and more than {@code
 * relativeTolerance} of the stored value, or when the stored one is older than {@code heartbeat}
 * (so {@code readAt} says the BMC still answers). Between writes, the exact value is in the {@code
 * bamel_node_power_watts} gauge. Pure.
 *
 * @param relativeTolerance the share of the stored value a reading must move by (0.05: 5 %)
 * @param absoluteWatts the watts a reading must move by (small values flicker by a few watts)
 * @param heartbeat the longest time a stored reading stands unrefreshed
 */
public record ReadingsPolicy(double relativeTolerance, double absoluteWatts, Duration heartbeat) {

  /** 5 %, 10 W, one hour. */
  public static final ReadingsPolicy DEFAULTS = new ReadingsPolicy(0.05, 10, Duration.ofHours(1));

  /** Every reading is written (the behaviour before this policy; tests and benchmarks). */
  public static final ReadingsPolicy EVERY_READING = new ReadingsPolicy(0, 0, Duration.ZERO);

  /** Checks the bounds. */
  public ReadingsPolicy {
    if (relativeTolerance < 0 || absoluteWatts < 0 || heartbeat.isNegative()) {
      throw new IllegalArgumentException("readings tolerances must not be negative");
    }
  }

  /** Whether {@code watts}, read at {@code now}, should replace {@code stored} in etcd. */
  public boolean shouldWrite(NodeReadings stored, double watts, Instant now) {
    if (stored == null || stored.powerWatts() == null || stored.readAt() == null) {
      return true;
    }
    if (!stored.readAt().plus(heartbeat).isAfter(now)) {
      return true;
    }
    double delta = Math.abs(watts - stored.powerWatts());
    return delta > absoluteWatts && delta > relativeTolerance * Math.abs(stored.powerWatts());
  }
}
