package io.bamel.bench;

import java.util.List;

/**
 * One benchmark of {@code make bench}.
 *
 * <p>Contract: {@link #run} measures bamel and the raw baseline (raw etcd, a bare tool, or an ideal
 * figure) in the same run on the same machine, and returns one row per measured figure. It starts
 * whatever servers it needs on loopback and stops them before returning. It never asserts; whether
 * a target was met is reported in the row.
 */
public interface Benchmark {

  /** A short name shown in the table, such as {@code batch-upsert}. */
  String name();

  /** Runs the benchmark and returns its rows. */
  List<BenchResult> run(BenchContext context) throws Exception;
}
