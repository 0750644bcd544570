package io.bamel.bench.endurance;

import io.bamel.bench.BenchContext;
import io.bamel.bench.BenchResult;
import io.bamel.bench.Benchmark;
import io.bamel.inventory.maintenance.DefragRule;
import io.bamel.node.ReadingsPolicy;
import io.bamel.pool.PoolStatusWrites;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A simulated day of a fleet ({@link DayRun}): 10,000 nodes in pools of 100 whose load rises and
 * falls over 24 hours, the node controller's writes (status transitions and events as the real
 * state machine decides them; power readings through {@link ReadingsPolicy#DEFAULTS}), the pool
 * controller's decisions and its pool status writes (through {@link PoolStatusWrites#DEFAULTS}, the
 * controller's own rule), compaction every 5 simulated minutes and the leader's defragmentation
 * ({@link DefragRule#DEFAULTS}, on by default, checked after each compaction). Target: etcd's data
 * in use ({@code dbSizeInUse}) at the end at most 1.2 times what it was at the start. Also
 * reported: the database file ({@code dbSize}, which etcd's quota applies to), the highest in-use
 * size of the last 12 hours, the writes per simulated minute against the same day writing every
 * reading, the pool statuses' share of the writes, and, as information, the same day without
 * defragmentation and for a slice of the fleet (1,000 nodes: both sizes grow with the fleet, so the
 * ratio holds for any size) with the defaults, without defragmentation, and, without
 * defragmentation, writing every changed pool status, without compaction, without the readings
 * policy, and without any of the three (bamel before issue 15). {@code
 * -Dbench.enduranceVariants=day,no-defrag,...} runs a subset ({@code day}, {@code no-defrag},
 * {@code slice}, {@code slice-no-defrag}, {@code slice-every-status}, {@code slice-no-compaction},
 * {@code slice-every-reading}, {@code slice-neither}; the first named is the target row).
 */
public final class EnduranceBenchmark implements Benchmark {

  private static final long SEED = 15;

  @Override
  public String name() {
    return "endurance";
  }

  @Override
  public List<BenchResult> run(BenchContext context) throws Exception {
    int nodes = context.size("enduranceNodes", 10_000);
    int slice = context.size("enduranceSliceNodes", 1_000);
    int hours = context.size("enduranceHours", 24);
    int perPool = Integer.getInteger("bench.enduranceNodesPerPool", 100);
    int minutes = hours * 60;
    record Variant(
        String key,
        String what,
        int nodes,
        ReadingsPolicy policy,
        boolean compaction,
        PoolStatusWrites statusWrites,
        DefragRule defrag) {}
    List<Variant> all =
        List.of(
            new Variant(
                "day",
                "",
                nodes,
                ReadingsPolicy.DEFAULTS,
                true,
                PoolStatusWrites.DEFAULTS,
                DefragRule.DEFAULTS),
            new Variant(
                "no-defrag",
                "without defragmentation (storage.defrag.enabled: false)",
                nodes,
                ReadingsPolicy.DEFAULTS,
                true,
                PoolStatusWrites.DEFAULTS,
                null),
            new Variant(
                "slice",
                "",
                slice,
                ReadingsPolicy.DEFAULTS,
                true,
                PoolStatusWrites.DEFAULTS,
                DefragRule.DEFAULTS),
            new Variant(
                "slice-no-defrag",
                "without defragmentation (storage.defrag.enabled: false)",
                slice,
                ReadingsPolicy.DEFAULTS,
                true,
                PoolStatusWrites.DEFAULTS,
                null),
            new Variant(
                "slice-every-status",
                "every changed pool status written, without defragmentation",
                slice,
                ReadingsPolicy.DEFAULTS,
                true,
                PoolStatusWrites.EVERY_CHANGE,
                null),
            new Variant(
                "slice-no-compaction",
                "without compaction or defragmentation",
                slice,
                ReadingsPolicy.DEFAULTS,
                false,
                PoolStatusWrites.DEFAULTS,
                null),
            new Variant(
                "slice-every-reading",
                "without the readings policy or defragmentation",
                slice,
                ReadingsPolicy.EVERY_READING,
                true,
                PoolStatusWrites.DEFAULTS,
                null),
            new Variant(
                "slice-neither",
                "without compaction, the readings policy, the pool status tolerance and"
                    + " defragmentation (before issue 15)",
                slice,
                ReadingsPolicy.EVERY_READING,
                false,
                PoolStatusWrites.EVERY_CHANGE,
                null));
    // -Dbench.enduranceVariants=day,no-defrag,...: a subset (the first named is the target row).
    String only = System.getProperty("bench.enduranceVariants", "");
    List<Variant> variants = new ArrayList<>();
    if (only.isBlank()) {
      variants.addAll(all);
    } else {
      for (String key : only.split(",")) {
        variants.add(
            all.stream()
                .filter(v -> v.key().equals(key.trim()))
                .findFirst()
                .orElseThrow(
                    () -> new IllegalArgumentException("bench.enduranceVariants: no " + key)));
      }
    }
    String day = String.format("%,d nodes, %d h", variants.get(0).nodes(), hours);
    // The days run at once, each on an etcd of its own: what they measure (etcd's size, the
    // writes) does not depend on the real clock, and a simulated minute mostly waits for etcd's
    // commits, so running them one after the other would only take four times as long.
    List<Future<DayRun.DayReport>> days = new ArrayList<>();
    try (ExecutorService runner = Executors.newFixedThreadPool(variants.size())) {
      for (Variant v : variants) {
        DayRun run =
            new DayRun(
                new DayRun.Settings(
                    v.nodes(),
                    pools(v.nodes(), perPool),
                    minutes,
                    v.policy(),
                    v.compaction(),
                    v.statusWrites(),
                    v.defrag(),
                    SEED));
        String label =
            name() + " " + v.key() + (v.nodes() == nodes ? "" : " (" + v.nodes() + " nodes)");
        days.add(runner.submit(() -> run.run(label)));
      }
    }
    DayRun.DayReport main = days.get(0).get();
    List<BenchResult> rows = new ArrayList<>();
    rows.add(
        BenchResult.ratioAtMost(
            name(),
            "etcd db in use at the end vs at the start, "
                + day
                + ", shipped defaults (compaction every 5 min, the leader's defragmentation rule)",
            mib(main.end().dbSizeInUseBytes()),
            mib(main.start().dbSizeInUseBytes()),
            "MiB",
            1.2));
    rows.add(
        info(
            "etcd db file (dbSize, what the quota counts) at the end vs at the start, " + day,
            mib(main.end().dbSizeBytes()),
            mib(main.start().dbSizeBytes()),
            "MiB"));
    rows.add(
        info(
            "etcd db in use at the end vs after the first simulated hour (history of two"
                + " compaction intervals in both), "
                + day,
            mib(main.end().dbSizeInUseBytes()),
            mib(main.firstHour().dbSizeInUseBytes()),
            "MiB"));
    rows.add(
        info(
            "etcd live data (compacted to the last revision, defragmented) at the end vs at the"
                + " start, "
                + day,
            mib(main.liveEnd().dbSizeBytes()),
            mib(main.start().dbSizeBytes()),
            "MiB"));
    rows.add(
        info(
            "etcd db in use, highest of the last 12 simulated hours vs at the start, " + day,
            mib(maxOfLastHalf(main.hourlyInUse())),
            mib(main.start().dbSizeInUseBytes()),
            "MiB"));
    WriteCounts c = main.counts();
    rows.add(
        info(
            "pool status writes without a decision vs every etcd write, " + day,
            c.poolStatus.sum(),
            c.total(),
            "writes"));
    double perMinute = c.total() / (double) minutes;
    double everyReading = (c.total() - c.readings.sum() + c.readingsTaken.sum()) / (double) minutes;
    rows.add(
        info(
            "etcd writes per simulated minute, "
                + day
                + " (baseline: the same day writing every reading)",
            perMinute,
            everyReading,
            "writes/min"));
    List<Double> compactions = new ArrayList<>(main.compactionMillis());
    if (!compactions.isEmpty()) {
      compactions.sort(null);
      rows.add(
          info(
              String.format(
                  "etcd compaction until applied, median of %d (max %s ms), %s, vs the 5 min"
                      + " interval",
                  compactions.size(),
                  BenchContext.format(compactions.get(compactions.size() - 1)),
                  day),
              compactions.get(compactions.size() / 2),
              5 * 60 * 1000.0,
              "ms"));
    }
    for (int i = 1; i < variants.size(); i++) {
      DayRun.DayReport o = days.get(i).get();
      Variant v = variants.get(i);
      String what =
          (v.what().isEmpty() ? "" : v.what() + ", ")
              + (v.nodes() == nodes
                  ? String.format("%,d nodes, %d h", nodes, hours)
                  : String.format("%,d-node slice, %d h", v.nodes(), hours));
      rows.add(
          info(
              "etcd db in use at the end vs at the start, " + what,
              mib(o.end().dbSizeInUseBytes()),
              mib(o.start().dbSizeInUseBytes()),
              "MiB"));
      rows.add(
          info(
              "etcd db in use, highest of the last 12 simulated hours vs at the start, " + what,
              mib(maxOfLastHalf(o.hourlyInUse())),
              mib(o.start().dbSizeInUseBytes()),
              "MiB"));
      rows.add(
          info(
              String.format(
                  "etcd writes per simulated minute (pool statuses %,d; %d defragmentations) vs"
                      + " the target row's, %s",
                  o.counts().poolStatus.sum(), o.defragMillis().size(), what),
              o.counts().total() / (double) minutes,
              perMinute,
              "writes/min"));
    }
    return rows;
  }

  private static long maxOfLastHalf(List<Long> hourly) {
    long max = 0;
    for (int i = hourly.size() / 2; i < hourly.size(); i++) {
      max = Math.max(max, hourly.get(i));
    }
    return max;
  }

  private static int pools(int nodes, int perPool) {
    return Math.max(1, nodes / perPool);
  }

  private BenchResult info(String measure, double bamel, double baseline, String unit) {
    return new BenchResult(
        name(), measure + " (info)", bamel, baseline, unit, bamel / baseline, "info", true);
  }

  private static double mib(long bytes) {
    return bytes / (1024.0 * 1024.0);
  }
}
