package io.bamel.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs timed actions untimed until HotSpot's JIT is steady, so that a benchmark times compiled code
 * rather than compilation. A per-request path through Jetty, Javalin and an HTTP client takes
 * thousands of requests before C2 has compiled it (with 200 warm-up requests, a 304 had a p99 of
 * 2.8 to 3.1 ms; steady, 0.13 to 0.17 ms), and on two cores the compiler threads take time from the
 * code being timed.
 *
 * <p>The warm-up goes in passes; in each pass every action runs repeatedly (each run after its
 * {@code prepare}) for {@link #SLICE_NANOS}, at least once, so each gets the same share of the
 * machine whatever it costs. The JIT is steady once {@link #CALM_PASSES} passes in a row have each
 * spent less than {@link #CALM_SHARE} of their wall time compiling, as {@link
 * CompilationMXBean#getTotalCompilationTime()} counts it; the warm-up stops then, or after {@code
 * maxPasses}. Where the JVM does not count compilation time, every pass up to {@code maxPasses} is
 * run.
 */
public final class JitWarmUp {

  /** How long each action runs in each pass. */
  static final long SLICE_NANOS = 200_000_000L;

  /** The share of a pass's wall time spent compiling under which the pass counts as calm. */
  static final double CALM_SHARE = 0.05;

  /** How many calm passes in a row make the JIT steady. */
  static final int CALM_PASSES = 2;

  /** One pass: its wall time and the JIT's compilation time during it. */
  record Pass(long wallMillis, long compileMillis) {
    boolean calm() {
      return compileMillis < CALM_SHARE * wallMillis;
    }
  }

  /**
   * What a warm-up did.
   *
   * @param passes how many passes it ran
   * @param steady whether it ended because the JIT was steady (not because of the bound)
   * @param wallMillis how long it took
   */
  public record WarmUpReport(int passes, boolean steady, long wallMillis) {
    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%d passes, %.1f s, %s",
          passes,
          wallMillis / 1e3,
          steady ? "JIT steady" : "stopped at the bound before the JIT was steady");
    }
  }

  private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();

  private JitWarmUp() {}

  /** Whether the JVM counts its compilation time ({@link #compilationMillis}). */
  public static boolean compilationCounted() {
    return JIT != null && JIT.isCompilationTimeMonitoringSupported();
  }

  /**
   * The JIT's compilation time so far, in milliseconds, as {@link
   * CompilationMXBean#getTotalCompilationTime()} counts it (0 where the JVM does not count it).
   */
  public static long compilationMillis() {
    return compilationCounted() ? JIT.getTotalCompilationTime() : 0;
  }

  /** Runs {@code actions} in passes until the JIT is steady or {@code maxPasses} have run. */
  public static WarmUpReport run(List<? extends Timer.Trial> actions, int maxPasses)
      throws Exception {
    boolean counted = compilationCounted();
    List<Pass> passes = new ArrayList<>();
    long start = System.nanoTime();
    while (passes.size() < maxPasses && !(counted && steady(passes))) {
      long compiled = compilationMillis();
      long passStart = System.nanoTime();
      for (Timer.Trial action : actions) {
        long end = System.nanoTime() + SLICE_NANOS;
        do {
          action.prepare();
          action.run();
        } while (System.nanoTime() < end);
      }
      passes.add(
          new Pass((System.nanoTime() - passStart) / 1_000_000, compilationMillis() - compiled));
    }
    return new WarmUpReport(
        passes.size(), counted && steady(passes), (System.nanoTime() - start) / 1_000_000);
  }

  /** Whether the last {@link #CALM_PASSES} passes were all calm. */
  static boolean steady(List<Pass> passes) {
    if (passes.size() < CALM_PASSES) {
      return false;
    }
    return passes.subList(passes.size() - CALM_PASSES, passes.size()).stream().allMatch(Pass::calm);
  }
}
