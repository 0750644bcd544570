package io.bamel.bench.endurance;

import io.bamel.bench.BenchContext;
import io.bamel.bench.BenchResult;
import io.bamel.bench.Benchmark;
import io.bamel.node.ReadingsPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A simulated day of a fleet ({@link DayRun}): 10,000 nodes in pools of 100 whose load rises and
 * falls over 24 hours, the node controller's writes (status transitions and events as the real
 * state machine decides them; power readings through {@link ReadingsPolicy#DEFAULTS}), the pool
 * controller's decisions and a pool status write every 15 s cycle, and compaction every 5 simulated
 * minutes. Target: etcd's live data ({@code dbSizeInUse}) at the end at most 1.2 times what it was
 * at the start. Also reported: the database file ({@code dbSize}, which etcd's quota applies to),
 * the writes per simulated minute against the same day writing every reading, and, as information,
 * the same day for a slice of the fleet (1,000 nodes: both sizes grow with the fleet, so the ratio
 * holds for any size) without compaction, without the readings policy, and without either (bamel
 * before issue 15).
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
    String day = String.format("%,d nodes, %d h", nodes, hours);
    String sliceDay = String.format("%,d-node slice, %d h", slice, hours);
    record Variant(String what, int nodes, ReadingsPolicy policy, boolean compaction) {}
    List<Variant> variants =
        List.of(
            new Variant("", nodes, ReadingsPolicy.DEFAULTS, true),
            new Variant("without compaction", slice, ReadingsPolicy.DEFAULTS, false),
            new Variant("without the readings policy", slice, ReadingsPolicy.EVERY_READING, true),
            new Variant(
                "without either (before issue 15)", slice, ReadingsPolicy.EVERY_READING, false));
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
                    SEED));
        String label = v.what().isEmpty() ? name() : name() + " " + v.what();
        days.add(runner.submit(() -> run.run(label)));
      }
    }
    DayRun.DayReport main = days.get(0).get();
    List<BenchResult> rows = new ArrayList<>();
    rows.add(
        BenchResult.ratioAtMost(
            name(),
            "etcd db in use at the end vs at the start, " + day + ", compaction every 5 min",
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
    WriteCounts c = main.counts();
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
      rows.add(
          info(
              "etcd db in use at the end vs at the start, "
                  + variants.get(i).what()
                  + ", "
                  + sliceDay,
              mib(o.end().dbSizeInUseBytes()),
              mib(o.start().dbSizeInUseBytes()),
              "MiB"));
    }
    return rows;
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
