package io.bamel.pool.simulate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;

/**
 * Generates a seeded pod trace from a {@link WorkloadProfile}: the same profile, seed and length
 * give the same trace, pod for pod.
 *
 * <p>Arrivals are a non-homogeneous Poisson process whose rate per hour is the profile's mean times
 * the hour-of-day and day-of-week factors times a gamma-distributed burst factor (so hourly counts
 * are negative binomial), spread uniformly within the hour. Each pod draws its CPU and lifetime
 * from the profile's quantile tables by inverse CDF, and memory as CPU times a log-normal GiB per
 * core. The process runs from one maximum lifetime before the trace starts so that the trace opens
 * with the pods a steady workload has running: those are written as created at 0 (alive at the
 * start, the rule real traces follow). Service pods start at 0 and never end. A pod still alive at
 * the end has no deletion time. Pods ask no GPU.
 */
public final class WorkloadGenerator {
  /** The generator algorithm, fixed so that a seed means the same trace on every JDK. */
  public static final String ALGORITHM = "L64X128MixRandom";

  private final WorkloadProfile profile;

  public WorkloadGenerator(WorkloadProfile profile) {
    this.profile = profile;
  }

  /** The generator of the published Alibaba trace's shape. */
  public static WorkloadGenerator alibabaGpuV2023() {
    return new WorkloadGenerator(WorkloadProfile.alibabaGpuV2023());
  }

  /** A trace of the given length (whole hours), from the given seed. */
  public PodTrace generate(Duration length, long seed) {
    long seconds = length.toSeconds();
    if (seconds <= 0 || seconds % 3600 != 0) {
      throw new IllegalArgumentException("a trace is a positive whole number of hours: " + length);
    }
    RandomGenerator random = RandomGeneratorFactory.of(ALGORITHM).create(seed);
    long warmUpHours = (long) Math.ceil(profile.lifetimeSeconds().quantile(1) / 3600.0);
    List<PodRecord> pods = new ArrayList<>();
    for (int i = 0; i < profile.servicePods(); i++) {
      double u = (i + random.nextDouble()) / profile.servicePods();
      double cores = profile.cpuCores().quantile(u);
      pods.add(
          PodRecord.of(
              "service-%02d".formatted(i),
              0,
              OptionalLong.empty(),
              Math.round(cores * 1000),
              memoryMib(cores, random),
              0));
    }
    long counter = 0;
    for (long hour = -warmUpHours; hour < seconds / 3600; hour++) {
      double rate =
          profile.meanArrivalsPerHour()
              * profile.factor(hour)
              * gamma(profile.burstShape(), random)
              / profile.burstShape();
      int arrivals = poisson(rate, random);
      for (int i = 0; i < arrivals; i++) {
        long created = hour * 3600 + random.nextLong(3600);
        double cores = profile.cpuCores().quantile(random.nextDouble());
        long lifetime =
            Math.max(1, Math.round(profile.lifetimeSeconds().quantile(random.nextDouble())));
        long memory = memoryMib(cores, random);
        long deleted = created + lifetime;
        if (deleted <= 0) {
          continue; // over before the trace starts
        }
        String name = "pod-%06d".formatted(counter++);
        pods.add(
            PodRecord.of(
                name,
                Math.max(0, created),
                deleted > seconds ? OptionalLong.empty() : OptionalLong.of(deleted),
                Math.round(cores * 1000),
                memory,
                0));
      }
    }
    return new PodTrace(pods);
  }

  private long memoryMib(double cores, RandomGenerator random) {
    double gib =
        cores
            * profile.memoryGiBPerCore()
            * Math.exp(profile.memorySpread() * random.nextGaussian());
    return Math.max(1, Math.round(gib * 1024));
  }

  /** Gamma(shape, scale 1) by Marsaglia and Tsang (2000), boosted for shape below 1. */
  static double gamma(double shape, RandomGenerator random) {
    if (shape < 1) {
      return gamma(shape + 1, random) * Math.pow(random.nextDouble(), 1 / shape);
    }
    double d = shape - 1.0 / 3;
    double c = 1 / Math.sqrt(9 * d);
    while (true) {
      double x = random.nextGaussian();
      double v = 1 + c * x;
      if (v <= 0) {
        continue;
      }
      v = v * v * v;
      double u = random.nextDouble();
      if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) {
        return d * v;
      }
    }
  }

  /** Poisson by multiplying uniforms (Knuth); exact for the rates of an hour of pods. */
  static int poisson(double rate, RandomGenerator random) {
    if (rate > 500) {
      throw new IllegalArgumentException("hourly rate too high for this sampler: " + rate);
    }
    double limit = Math.exp(-rate);
    double product = random.nextDouble();
    int count = 0;
    while (product > limit) {
      product *= random.nextDouble();
      count++;
    }
    return count;
  }
}
