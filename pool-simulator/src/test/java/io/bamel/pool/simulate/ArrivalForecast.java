package io.bamel.pool.simulate;

import io.bamel.pool.Resources;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;

/**
 * Test scope, for {@link ArrivalReserve}: the room to keep free at a time, from what arrives within
 * the next {@code horizon} seconds (one boot time), each a perfect forecast of a kind a real one
 * could at best approach.
 *
 * <ul>
 *   <li>{@link #rate}: the generator's own arrival rate for the hour (its mean times the
 *       hour-of-day and day-of-week factors: an hour-of-week profile learned without error), its
 *       burst factor and per-pod CPU and memory distributions; the reserve is the {@code quantile}
 *       of the CPU (and, apart, the memory) arriving within the horizon, times {@code multiplier}.
 *   <li>{@link #hourly}: the same with each hour's realized count of arrivals known (its burst
 *       factor too), arrivals uniform within the hour.
 *   <li>{@link #exact}: the requests of the pods that do arrive within the horizon, times {@code
 *       multiplier}: what no forecast can beat.
 * </ul>
 */
interface ArrivalForecast {

  /** The samples of each Monte Carlo quantile. */
  int SAMPLES = 20_000;

  /** What to keep free at {@code now} (seconds on the trace's clock). */
  Resources reserve(long now);

  /** The generator's hour-of-week rate with its bursts: a perfect hour-of-week profile. */
  static ArrivalForecast rate(
      WorkloadProfile profile, double quantile, double multiplier, long horizon) {
    Quantiles q = new Quantiles(profile, quantile, multiplier, horizon, profile.burstShape());
    return now -> {
      long first = Math.floorDiv(now, 3600);
      long last = Math.floorDiv(now + horizon, 3600);
      double rate = 0;
      for (long h = first; h <= last; h++) {
        rate = Math.max(rate, profile.meanArrivalsPerHour() * profile.factor(h));
      }
      return q.of(rate);
    };
  }

  /** Each hour's realized arrivals of {@code pool} in {@code workload}, uniform within it. */
  static ArrivalForecast hourly(
      WorkloadProfile profile,
      Workload workload,
      String pool,
      double quantile,
      double multiplier,
      long horizon) {
    Map<Long, Integer> counts = new HashMap<>();
    for (Workload.Pod p : workload.pods()) {
      if (p.pool().equals(pool) && p.start() > workload.start()) {
        counts.merge(Math.floorDiv(p.start(), 3600), 1, Integer::sum);
      }
    }
    Quantiles q = new Quantiles(profile, quantile, multiplier, horizon, 0);
    return now -> {
      long first = Math.floorDiv(now, 3600);
      long last = Math.floorDiv(now + horizon, 3600);
      double rate = 0;
      for (long h = first; h <= last; h++) {
        rate = Math.max(rate, counts.getOrDefault(h, 0));
      }
      return q.of(rate);
    };
  }

  /** The requests of {@code pool}'s pods that start within the horizon, times the multiplier. */
  static ArrivalForecast exact(Workload workload, String pool, double multiplier, long horizon) {
    long[] starts =
        workload.pods().stream()
            .filter(p -> p.pool().equals(pool) && p.start() > workload.start())
            .mapToLong(Workload.Pod::start)
            .sorted()
            .toArray();
    Map<Long, double[]> byStart = new HashMap<>();
    for (Workload.Pod p : workload.pods()) {
      if (p.pool().equals(pool) && p.start() > workload.start()) {
        double[] r = byStart.computeIfAbsent(p.start(), k -> new double[2]);
        r[0] += p.requests().get("cpu");
        r[1] += p.requests().get("memory");
      }
    }
    long[] distinct = Arrays.stream(starts).distinct().toArray();
    double[] cpu = new double[distinct.length + 1];
    double[] memory = new double[distinct.length + 1];
    for (int i = 0; i < distinct.length; i++) {
      double[] r = byStart.get(distinct[i]);
      cpu[i + 1] = cpu[i] + r[0];
      memory[i + 1] = memory[i] + r[1];
    }
    return now -> {
      int from = upper(distinct, now);
      int to = upper(distinct, now + horizon);
      double c = (cpu[to] - cpu[from]) * multiplier;
      double m = (memory[to] - memory[from]) * multiplier;
      return c <= 0 ? Resources.NONE : Resources.of("cpu", c, "memory", m);
    };
  }

  /** How many of the sorted {@code values} are at most {@code v}. */
  private static int upper(long[] values, long v) {
    int i = Arrays.binarySearch(values, v);
    return i >= 0 ? i + 1 : -i - 1;
  }

  /** The quantile of what arrives within the horizon at a rate, by Monte Carlo, cached by rate. */
  final class Quantiles {
    private final WorkloadProfile profile;
    private final double quantile;
    private final double multiplier;
    private final long horizon;
    private final double burstShape;
    private final Map<Double, Resources> cache = new HashMap<>();

    Quantiles(
        WorkloadProfile profile,
        double quantile,
        double multiplier,
        long horizon,
        double burstShape) {
      this.profile = profile;
      this.quantile = quantile;
      this.multiplier = multiplier;
      this.horizon = horizon;
      this.burstShape = burstShape;
    }

    Resources of(double ratePerHour) {
      return cache.computeIfAbsent(ratePerHour, this::compute);
    }

    private Resources compute(double ratePerHour) {
      RandomGenerator random = RandomGeneratorFactory.of(WorkloadGenerator.ALGORITHM).create(7);
      double[] cpu = new double[SAMPLES];
      double[] memory = new double[SAMPLES];
      for (int i = 0; i < SAMPLES; i++) {
        double burst =
            burstShape > 0 ? WorkloadGenerator.gamma(burstShape, random) / burstShape : 1;
        int n = WorkloadGenerator.poisson(ratePerHour * burst * horizon / 3600.0, random);
        for (int k = 0; k < n; k++) {
          double cores = profile.cpuCores().quantile(random.nextDouble());
          cpu[i] += cores;
          memory[i] +=
              cores
                  * profile.memoryGiBPerCore()
                  * Math.exp(profile.memorySpread() * random.nextGaussian())
                  * 1024.0
                  * 1024
                  * 1024;
        }
      }
      Arrays.sort(cpu);
      Arrays.sort(memory);
      int at = Math.min(SAMPLES - 1, (int) Math.ceil(quantile * SAMPLES) - 1);
      at = Math.max(0, at);
      double c = cpu[at] * multiplier;
      double m = memory[at] * multiplier;
      return c <= 0 ? Resources.NONE : Resources.of("cpu", c, "memory", m);
    }
  }
}
