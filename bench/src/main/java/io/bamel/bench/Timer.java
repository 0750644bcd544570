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

  /** The time of one call, in milliseconds. */
  public static double millis(Callable<?> work) throws Exception {
    long start = System.nanoTime();
    work.call();
    return (System.nanoTime() - start) / 1e6;
  }
}
