package io.bamel.bench;

import java.util.Locale;

/**
 * What a benchmark may read about the run: scale settings from system properties ({@code
 * -Dbench.X=...}), so that a quick run ({@code -Dbench.quick=true}) can shrink every size.
 */
public final class BenchContext {

  private final boolean quick;

  /** Reads the run's settings from the system properties. */
  public BenchContext() {
    this.quick = Boolean.getBoolean("bench.quick");
  }

  /** Whether this is a quick run (smaller sizes, for checking the harness itself). */
  public boolean quick() {
    return quick;
  }

  /**
   * A size: the system property {@code bench.<name>} when set, else {@code full}, divided by 10 (at
   * least 1) in a quick run.
   */
  public int size(String name, int full) {
    String value = System.getProperty("bench." + name);
    if (value != null) {
      return Integer.parseInt(value.trim());
    }
    return quick ? Math.max(1, full / 10) : full;
  }

  /** Formats a number for the table. */
  public static String format(double value) {
    return String.format(Locale.ROOT, value >= 100 ? "%,.0f" : "%,.2f", value);
  }
}
