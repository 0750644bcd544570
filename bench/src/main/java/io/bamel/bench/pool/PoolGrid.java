package io.bamel.bench.pool;

import io.bamel.bench.BenchContext;
import io.bamel.pool.PoolController.AppliedPlan;
import io.bamel.pool.ScalingDecision.Direction;
import java.util.List;

/**
 * The fleet of the pool-cycle benchmarks: {@code pools} pools ({@code -Dbench.pools}, default 100,
 * a tenth in a quick run) of {@code perPool} nodes each ({@code -Dbench.poolNodes}, default 100),
 * as {@link PoolCycleBenchmark#load} writes it.
 */
record PoolGrid(int pools, int perPool) {

  /** The grid this run asks for. */
  static PoolGrid of(BenchContext context) {
    return new PoolGrid(context.size("pools", 100), Integer.getInteger("bench.poolNodes", 100));
  }

  /** Every node of every pool. */
  int nodes() {
    return pools * perPool;
  }

  /**
   * Fails unless a cycle's {@code outcomes} are the steady state {@link PoolCycleBenchmark#load}
   * writes: one per pool, none scaling.
   */
  void requireSteady(List<AppliedPlan> outcomes) {
    if (outcomes.size() != pools
        || outcomes.stream().anyMatch(o -> o.decision().direction() != Direction.NONE)) {
      throw new IllegalStateException("the steady state is not steady");
    }
  }
}
