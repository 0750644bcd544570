package io.bamel.pool.simulate;

import java.util.Arrays;
import java.util.Objects;

/**
 * What {@link WorkloadGenerator} draws from: arrival rate and its daily and weekly shape, the
 * overdispersion of hourly arrivals, per-pod CPU and lifetime distributions, memory per core, and
 * the long-running pods alive throughout. {@link #alibabaGpuV2023()} is calibrated to the published
 * Alibaba cluster-trace-gpu-v2023 pod list (docs/pool-controller.md, "Workloads for simulation").
 *
 * @param meanArrivalsPerHour pods created per hour, averaged over a week
 * @param hourOfDay 24 rate factors, mean 1
 * @param dayOfWeek 7 rate factors, mean 1; day 0 is the trace's first day
 * @param burstShape shape k of the gamma factor (mean 1, variance 1/k) multiplying each hour's
 *     rate: hourly counts are negative binomial rather than Poisson
 * @param cpuCores per-pod CPU request in cores
 * @param lifetimeSeconds per-pod lifetime; its last value is also the warm-up drawn before the
 *     trace so that it starts with the pods a steady workload would have running
 * @param memoryGiBPerCore median memory per requested core
 * @param memorySpread standard deviation of the logarithm of memory per core
 * @param servicePods pods alive from the trace's start to past its end (services)
 */
public record WorkloadProfile(
    double meanArrivalsPerHour,
    double[] hourOfDay,
    double[] dayOfWeek,
    double burstShape,
    QuantileTable cpuCores,
    QuantileTable lifetimeSeconds,
    double memoryGiBPerCore,
    double memorySpread,
    int servicePods) {

  public WorkloadProfile {
    Objects.requireNonNull(cpuCores, "cpuCores");
    Objects.requireNonNull(lifetimeSeconds, "lifetimeSeconds");
    if (hourOfDay.length != 24 || dayOfWeek.length != 7) {
      throw new IllegalArgumentException("24 hour-of-day and 7 day-of-week factors expected");
    }
    if (!(meanArrivalsPerHour > 0 && burstShape > 0 && memoryGiBPerCore > 0)
        || memorySpread < 0
        || servicePods < 0) {
      throw new IllegalArgumentException("rates, shape and memory per core must be positive");
    }
    hourOfDay = normalised(hourOfDay);
    dayOfWeek = normalised(dayOfWeek);
  }

  /**
   * The published trace's shape: 10 pods an hour on average, a cosine day between 0.4 and 1.6 of
   * the mean (a 4x swing, busiest at 16:00), the seventh day at 40 % of the other six, gamma bursts
   * of shape 4 (hourly p90 about 20), CPU and lifetime quantile tables through the trace's
   * published quantiles, 4 GiB per core (which puts the median pod at about 40 GiB), and 20
   * services.
   */
  public static WorkloadProfile alibabaGpuV2023() {
    double[] hours = new double[24];
    for (int h = 0; h < 24; h++) {
      hours[h] = 0.4 + 1.2 * 0.5 * (1 - Math.cos(2 * Math.PI * (h - 4) / 24));
    }
    double[] days = {1, 1, 1, 1, 1, 1, 0.4};
    QuantileTable cpu =
        QuantileTable.of(
            0, 1.0, 0.10, 3.152, 0.25, 6.0, 0.50, 11.3, 0.90, 16.4, 0.99, 32.0, 0.999, 88.0, 1,
            120.0);
    QuantileTable lifetime =
        QuantileTable.of(
            0, 2, 0.10, 40, 0.25, 150, 0.50, 540, 0.53, 600, 0.83, 3600, 0.90, 6574, 0.99, 99719, 1,
            1_000_000);
    return new WorkloadProfile(10, hours, days, 4, cpu, lifetime, 4.0, 0.35, 20);
  }

  private static double[] normalised(double[] factors) {
    double sum = 0;
    for (double factor : factors) {
      if (!(factor >= 0)) {
        throw new IllegalArgumentException("negative rate factor: " + Arrays.toString(factors));
      }
      sum += factor;
    }
    if (sum == 0) {
      throw new IllegalArgumentException("all rate factors are zero");
    }
    double mean = sum / factors.length;
    double[] copy = new double[factors.length];
    for (int i = 0; i < factors.length; i++) {
      copy[i] = factors[i] / mean;
    }
    return copy;
  }

  /** The rate factor of the hour {@code hour} (hours since the trace's start, may be negative). */
  public double factor(long hour) {
    int hourOfDayIndex = (int) Math.floorMod(hour, 24L);
    int day = (int) Math.floorMod(Math.floorDiv(hour, 24L), 7L);
    return hourOfDay[hourOfDayIndex] * dayOfWeek[day];
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof WorkloadProfile p
        && meanArrivalsPerHour == p.meanArrivalsPerHour
        && Arrays.equals(hourOfDay, p.hourOfDay)
        && Arrays.equals(dayOfWeek, p.dayOfWeek)
        && burstShape == p.burstShape
        && cpuCores.equals(p.cpuCores)
        && lifetimeSeconds.equals(p.lifetimeSeconds)
        && memoryGiBPerCore == p.memoryGiBPerCore
        && memorySpread == p.memorySpread
        && servicePods == p.servicePods;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        meanArrivalsPerHour,
        Arrays.hashCode(hourOfDay),
        Arrays.hashCode(dayOfWeek),
        burstShape,
        cpuCores,
        lifetimeSeconds,
        memoryGiBPerCore,
        memorySpread,
        servicePods);
  }

  @Override
  public String toString() {
    return "WorkloadProfile[" + meanArrivalsPerHour + "/h, " + servicePods + " services]";
  }
}
