package io.bamel.bench;

/**
 * One row of the benchmark table: a bamel figure beside its baseline measured in the same run.
 *
 * @param benchmark the benchmark's name
 * @param measure what was measured, such as {@code 10,000 nodes}
 * @param bamel bamel's figure
 * @param baseline the baseline's figure (raw etcd, a bare tool, or the ideal)
 * @param unit the unit of both figures, such as {@code ms}
 * @param ratio the figure the target applies to, usually {@code bamel / baseline}
 * @param target the target in words, such as {@code <= 1.5}
 * @param met whether the target was met
 */
public record BenchResult(
    String benchmark,
    String measure,
    double bamel,
    double baseline,
    String unit,
    double ratio,
    String target,
    boolean met) {

  /** A row whose target is {@code bamel / baseline <= maxRatio}. */
  public static BenchResult ratioAtMost(
      String benchmark, String measure, double bamel, double baseline, String unit, double max) {
    double ratio = bamel / baseline;
    return new BenchResult(
        benchmark, measure, bamel, baseline, unit, ratio, "<= " + max, ratio <= max);
  }

  /** A row whose target is that nothing was counted ({@code = 0}): {@code count} against 0. */
  public static BenchResult none(String benchmark, String measure, double count, String unit) {
    return new BenchResult(benchmark, measure, count, 0, unit, count, "= 0", count == 0);
  }
}
