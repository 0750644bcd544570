package io.bamel.pool.simulate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The statistics a trace is described by, the same for a read and a generated one.
 *
 * <p>Rules: pods created at the trace's start are alive at the start, not arrivals, and count only
 * in concurrency. Arrivals are counted per whole hour from the start (a last partial hour is left
 * out). Per-pod figures cover arrivals; lifetimes cover arrivals with a deletion time. Quantiles
 * are nearest-rank: the q-quantile of n sorted values is the value at rank ceil(q n). Concurrency
 * sums the CPU requested by pods from creation (inclusive) to deletion (exclusive), a pod with no
 * deletion up to the trace's end, scheduled or not; its mean is weighted by time over [start, end].
 */
public final class TraceStatistics {
  private TraceStatistics() {}

  /** Median, mean, p90, p99 and maximum of a sample. */
  public record Summary(int count, double median, double mean, double p90, double p99, double max) {
    /** Summarises the values (an empty sample is all zero). */
    public static Summary of(double[] values) {
      if (values.length == 0) {
        return new Summary(0, 0, 0, 0, 0, 0);
      }
      double[] sorted = values.clone();
      Arrays.sort(sorted);
      return new Summary(
          sorted.length,
          quantile(sorted, 0.5),
          Arrays.stream(sorted).average().orElse(0),
          quantile(sorted, 0.9),
          quantile(sorted, 0.99),
          sorted[sorted.length - 1]);
    }
  }

  /** Time-weighted mean and peak of a quantity over the trace. */
  public record Concurrency(double mean, double peak) {}

  /** The nearest-rank q-quantile of sorted values. */
  public static double quantile(double[] sorted, double q) {
    if (sorted.length == 0) {
      throw new IllegalArgumentException("no values");
    }
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.clamp(rank - 1, 0, sorted.length - 1)];
  }

  /** Pods created after the trace's start. */
  public static List<PodRecord> arrivals(PodTrace trace) {
    long start = trace.start();
    return trace.pods().stream().filter(pod -> pod.created() > start).toList();
  }

  /** The number of arrivals in each whole hour from the start. */
  public static long[] arrivalsPerHour(PodTrace trace) {
    long start = trace.start();
    int hours = (int) ((trace.end() - start) / 3600);
    long[] counts = new long[hours];
    for (PodRecord pod : arrivals(trace)) {
      long hour = (pod.created() - start) / 3600;
      if (hour < hours) {
        counts[(int) hour]++;
      }
    }
    return counts;
  }

  /** The arrivals per hour summarised. */
  public static Summary hourlyArrivals(PodTrace trace) {
    return Summary.of(Arrays.stream(arrivalsPerHour(trace)).asDoubleStream().toArray());
  }

  /** Mean arrivals per hour of day (0 to 23, counted from the trace's start). */
  public static double[] arrivalsByHourOfDay(PodTrace trace) {
    return folded(arrivalsPerHour(trace), 1, 24);
  }

  /**
   * The swing over the hour of day: the busiest over the quietest of the hour-of-day means, each
   * first averaged with its two neighbours (circularly) so that one noisy hour does not set it.
   */
  public static double hourOfDaySwing(PodTrace trace) {
    double[] byHour = arrivalsByHourOfDay(trace);
    double busiest = 0;
    double quietest = Double.MAX_VALUE;
    for (int h = 0; h < 24; h++) {
      double smoothed = (byHour[(h + 23) % 24] + byHour[h] + byHour[(h + 1) % 24]) / 3;
      busiest = Math.max(busiest, smoothed);
      quietest = Math.min(quietest, smoothed);
    }
    return quietest == 0 ? Double.POSITIVE_INFINITY : busiest / quietest;
  }

  /** Mean arrivals per day of week (0 to 6, day 0 the trace's first day). */
  public static double[] arrivalsByDayOfWeek(PodTrace trace) {
    return folded(arrivalsPerHour(trace), 24, 7);
  }

  private static double[] folded(long[] perHour, int hoursPerBucket, int buckets) {
    double[] sums = new double[buckets];
    int[] counts = new int[buckets];
    for (int hour = 0; hour < perHour.length; hour++) {
      int bucket = (hour / hoursPerBucket) % buckets;
      sums[bucket] += perHour[hour];
      counts[bucket]++;
    }
    for (int i = 0; i < buckets; i++) {
      sums[i] = counts[i] == 0 ? 0 : sums[i] / counts[i];
    }
    return sums;
  }

  /** CPU per arriving pod, in cores. */
  public static Summary cpuCores(PodTrace trace) {
    return perPod(arrivals(trace), pod -> pod.cpuMilli() / 1000.0);
  }

  /** Memory per arriving pod, in GiB. */
  public static Summary memoryGiB(PodTrace trace) {
    return perPod(arrivals(trace), pod -> pod.memoryMib() / 1024.0);
  }

  /** Lifetimes of arriving pods with a deletion time, in seconds. */
  public static Summary lifetimes(PodTrace trace) {
    return Summary.of(lifetimeValues(trace));
  }

  /** The share of arriving pods with a deletion time that lived at most {@code seconds}. */
  public static double shareEndingWithin(PodTrace trace, long seconds) {
    double[] lifetimes = lifetimeValues(trace);
    if (lifetimes.length == 0) {
      return 0;
    }
    return Arrays.stream(lifetimes).filter(lifetime -> lifetime <= seconds).count()
        / (double) lifetimes.length;
  }

  private static double[] lifetimeValues(PodTrace trace) {
    return arrivals(trace).stream()
        .filter(pod -> pod.deleted().isPresent())
        .mapToDouble(pod -> pod.deleted().getAsLong() - pod.created())
        .toArray();
  }

  private static Summary perPod(List<PodRecord> pods, ToDoubleFunction<PodRecord> value) {
    return Summary.of(pods.stream().mapToDouble(value).toArray());
  }

  /** Requested CPU (cores) over time: a sweep over creations and deletions. */
  public static Concurrency concurrentCpuCores(PodTrace trace) {
    long start = trace.start();
    long end = trace.end();
    List<long[]> events = new ArrayList<>(); // time, milli change
    for (PodRecord pod : trace.pods()) {
      long deleted = pod.deletedOr(end);
      if (deleted > pod.created()) {
        events.add(new long[] {pod.created(), pod.cpuMilli()});
        events.add(new long[] {deleted, -pod.cpuMilli()});
      }
    }
    events.sort((a, b) -> Long.compare(a[0], b[0]));
    long current = 0;
    long peak = 0;
    double area = 0;
    long last = start;
    int i = 0;
    while (i < events.size()) {
      long time = events.get(i)[0];
      area += (double) current * (time - last);
      last = time;
      while (i < events.size() && events.get(i)[0] == time) {
        current += events.get(i)[1];
        i++;
      }
      peak = Math.max(peak, current);
    }
    double mean = end > start ? area / (end - start) / 1000.0 : 0;
    return new Concurrency(mean, peak / 1000.0);
  }
}
