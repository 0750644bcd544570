package io.bamel.pool.simulate;

import java.util.Arrays;
import java.util.List;

/** Accumulates a run's energy, samples and waits, and sums them up as a {@link PolicyResult}. */
final class Recorder {
  private final long start;
  private final long sampleSeconds;
  private final double[] requested;
  private final double[] powered;
  private final double[] ready;
  private final int[] pending;
  private double joules;

  Recorder(long start, long end, long sampleSeconds) {
    this.start = start;
    this.sampleSeconds = sampleSeconds;
    int n = (int) ((end - start) / sampleSeconds) + 1;
    requested = new double[n];
    powered = new double[n];
    ready = new double[n];
    pending = new int[n];
  }

  void energy(double watts, long seconds) {
    joules += watts * seconds;
  }

  /** Records a sample when {@code now} falls on a sample point. */
  void sample(long now, double requestedCpu, double poweredCpu, double readyCpu, int waiting) {
    long offset = now - start;
    if (offset % sampleSeconds != 0) {
      return;
    }
    int i = (int) (offset / sampleSeconds);
    if (i < requested.length) {
      requested[i] = requestedCpu;
      powered[i] = poweredCpu;
      ready[i] = readyCpu;
      pending[i] = waiting;
    }
  }

  PolicyResult result(
      String policy,
      long[] waits,
      int unplaceable,
      int pods,
      int evictions,
      int pendingAtEnd,
      int powerOns,
      int servers,
      long traceSeconds) {
    long[] sorted = waits.clone();
    Arrays.sort(sorted);
    double days = traceSeconds / 86400.0;
    return new PolicyResult(
        policy,
        joules / 3.6e6,
        Double.NaN,
        rank(sorted, 0.50),
        rank(sorted, 0.99),
        sorted.length == 0 ? 0 : sorted[sorted.length - 1],
        servers == 0 || days <= 0 ? 0 : powerOns / (double) servers / days,
        unplaceable,
        pods,
        evictions,
        pendingAtEnd,
        powerOns,
        new Series(start, sampleSeconds, requested, powered, ready, pending));
  }

  /** The nearest-rank quantile of sorted values (0 when there are none). */
  static double rank(long[] sorted, double q) {
    if (sorted.length == 0) {
      return 0;
    }
    int index = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }

  static long[] toArray(List<Long> values) {
    return values.stream().mapToLong(Long::longValue).toArray();
  }
}
