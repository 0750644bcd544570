package io.bamel.bench.node;

import io.bamel.bench.BenchResult;
import java.time.Duration;
import java.util.Locale;

/**
 * The rows both BMC-pass benchmarks ({@link BmcPassBenchmark} over Redfish, {@link
 * IpmiBmcPassBenchmark} over IPMI) report, worded alike so that they read side by side: one
 * replica's pass against its ideal, and the bench JVM's CPU per read in a timed pass.
 */
final class PassRows {

  /** A pass may take this many times its ideal. */
  static final double PASS_TARGET = 1.3;

  private PassRows() {}

  /**
   * One replica's pass of {@code nodes} BMCs ({@code what}, such as {@code nodes}; {@code how} is
   * added after the latency, empty or such as {@code " (RMCP+ suite 3)"}) answering after {@code
   * latency}, {@code concurrency} calls at once, against the ideal {@code nodes x latency /
   * concurrency}.
   */
  static BenchResult onePass(
      String benchmark,
      String what,
      String how,
      int nodes,
      Duration latency,
      int concurrency,
      double millis,
      double ideal) {
    String ms = String.format(Locale.ROOT, "%,d ms", latency.toMillis());
    return BenchResult.ratioAtMost(
        benchmark,
        String.format(
            Locale.ROOT,
            "pass of %,d %s x %s%s, 1 replica, %d BMC calls (vs ideal %,d x %s / %d)",
            nodes,
            what,
            ms,
            how,
            concurrency,
            nodes,
            ms,
            concurrency),
        millis,
        ideal,
        "ms",
        PASS_TARGET);
  }

  /**
   * The CPU row of a timed pass ({@code prefix} before its text, empty or such as {@code "1
   * replica: "}): the bench JVM's CPU time per read between {@code from} and {@code to} (replicas,
   * their caches and the simulated BMCs together) against the CPU time a read may take before the
   * ideal rate ({@code replicas x concurrency} reads per latency) fills the machine's cores; the
   * ratio is the share of the cores the ideal pass needs. Below 0.5 the pass can wait for the BMCs,
   * not for the CPU, on a machine of its own; on a shared machine other processes may still hold
   * the cores, so the measured share, the machine's busy share and the load are in the text.
   */
  static BenchResult cpu(
      String benchmark,
      String prefix,
      long reads,
      int replicas,
      Duration latency,
      int concurrency,
      CpuSample from,
      CpuSample to) {
    int cores = Runtime.getRuntime().availableProcessors();
    double perRead = to.processCpuMillisSince(from) / reads;
    double budget = cores * (double) latency.toMillis() / (replicas * concurrency);
    return new BenchResult(
        benchmark,
        prefix
            + String.format(
                Locale.ROOT,
                "bench JVM CPU per read in the timed pass (vs %d cores' time per read at the ideal"
                    + " rate; used %.0f %% of the cores, machine busy %.0f %%, load %.1f -> %.1f)",
                cores,
                100 * to.processShareSince(from),
                100 * to.machineBusySince(from),
                from.loadAverage(),
                to.loadAverage()),
        perRead,
        budget,
        "ms",
        perRead / budget,
        "< 0.5 (latency-bound)",
        perRead / budget < 0.5);
  }
}
