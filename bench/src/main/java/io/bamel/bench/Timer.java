package io.bamel.bench;

import java.util.Arrays;
import java.util.concurrent.Callable;

/**
 * Times repeated runs and keeps the median, so one slow run (GC, the other core busy) does not
 * decide.
 */
public final class Timer {

  private Timer() {}

  /** Something to time; {@link #prepare} runs before each timed run, untimed. */
  public interface Trial {
    /** Untimed set-up before a run (such as clearing etcd). */
    default void prepare() throws Exception {}

    /** The timed work. */
    void run() throws Exception;

    /** A trial of {@code work}, each run of it preceded by {@code prepare} (untimed). */
    static Trial of(Work prepare, Work work) {
      return new Trial() {
        @Override
        public void prepare() throws Exception {
          prepare.run();
        }

        @Override
        public void run() throws Exception {
          work.run();
        }
      };
    }
  }

  /** A step of a {@link Trial}: some work that may throw. */
  @FunctionalInterface
  public interface Work {
    /** Does the work. */
    void run() throws Exception;
  }

  /**
   * The median of {@code runs} timed runs, in milliseconds, after one untimed warm-up run (so the
   * JIT has compiled the code paths of both the subject and its baseline).
   */
  public static double medianMillis(int runs, Trial trial) throws Exception {
    trial.prepare();
    trial.run();
    double[] millis = new double[runs];
    for (int i = 0; i < runs; i++) {
      trial.prepare();
      long start = System.nanoTime();
      trial.run();
      millis[i] = (System.nanoTime() - start) / 1e6;
    }
    Arrays.sort(millis);
    return millis[runs / 2];
  }

  /**
   * The medians of {@code runs} runs of {@code subject} and of {@code baseline}, alternating
   * (baseline, subject, baseline, ...) after one untimed warm-up of each, so that a slow spell of
   * the machine (etcd's fsyncs on a shared disk vary a lot) weighs on both alike.
   *
   * @return {@code [subject median, baseline median]} in milliseconds
   */
  public static double[] interleavedMedians(int runs, Trial subject, Trial baseline)
      throws Exception {
    for (Trial t : new Trial[] {baseline, subject}) {
      t.prepare();
      t.run();
    }
    double[] a = new double[runs];
    double[] b = new double[runs];
    for (int i = 0; i < runs; i++) {
      b[i] = once(baseline);
      a[i] = once(subject);
    }
    Arrays.sort(a);
    Arrays.sort(b);
    return new double[] {a[runs / 2], b[runs / 2]};
  }

  /** The time of one run of {@code trial}, in milliseconds, after its untimed prepare. */
  public static double once(Trial trial) throws Exception {
    trial.prepare();
    long start = System.nanoTime();
    trial.run();
    return (System.nanoTime() - start) / 1e6;
  }

  /** The {@code p} quantile (0 to 1) of {@code millis}, by the nearest-rank method. */
  public static double percentile(double[] millis, double p) {
    double[] sorted = millis.clone();
    Arrays.sort(sorted);
    return sorted[Math.max(0, Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * p) - 1))];
  }

  /** The time of one call, in milliseconds. */
  public static double millis(Callable<?> work) throws Exception {
    long start = System.nanoTime();
    work.call();
    return (System.nanoTime() - start) / 1e6;
  }
}
