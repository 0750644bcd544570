package io.bamel.bench.pool;

import io.bamel.bench.BenchResult;
import io.bamel.bench.RawEtcd;
import io.bamel.bench.Timer;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.store.Keys;
import io.etcd.jetcd.Client;

/**
 * The rows both pool-cycle benchmarks report against the same baseline, a raw paged read of the
 * nodes' keys from etcd measured in the same run ({@link #rawRead}): a cycle's time, whose target
 * is at most 50 ms, and figures reported for information.
 */
final class CycleRows {

  private CycleRows() {}

  /**
   * The baseline: the median time, in ms, of {@code runs} raw paged ranges of every node's keys
   * (pages of the inventory cache's size).
   */
  static double rawRead(Client client, int runs) throws Exception {
    return Timer.medianMillis(
        runs,
        () ->
            RawEtcd.rangeAll(client, Keys.NODES, InventoryCache.Options.DEFAULTS.pageSize())
                .size());
  }

  /** A cycle's median time in ms beside the raw read's; target: the cycle at most 50 ms. */
  static BenchResult cycle(String benchmark, String measure, double cycleMs, double rawMs) {
    return new BenchResult(
        benchmark, measure, cycleMs, rawMs, "ms", cycleMs / rawMs, "cycle <= 50 ms", cycleMs <= 50);
  }

  /** A figure reported for information beside the raw read's time (no target). */
  static BenchResult information(
      String benchmark, String measure, double value, double rawMs, String unit) {
    return new BenchResult(
        benchmark, measure, value, rawMs, unit, value / rawMs, "information", true);
  }
}
