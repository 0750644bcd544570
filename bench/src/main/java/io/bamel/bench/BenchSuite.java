package io.bamel.bench;

import io.bamel.bench.store.BatchUpsertBenchmark;
import io.bamel.bench.store.CacheColdStartBenchmark;
import java.util.List;

/** Every benchmark of {@code make bench}, in the order they run. Add new ones here. */
final class BenchSuite {

  private BenchSuite() {}

  static List<Benchmark> all() {
    return List.of(
        // one benchmark per line
        new BatchUpsertBenchmark(),
        new CacheColdStartBenchmark(),
        new io.bamel.bench.power.RedfishReadBenchmark(),
        new io.bamel.bench.power.IpmiStatusBenchmark(),
        new io.bamel.bench.power.IpmiFleetBenchmark(),
        new io.bamel.bench.pool.PoolCycleBenchmark(),
        new io.bamel.bench.pool.InformerPoolCycleBenchmark(),
        new io.bamel.bench.pool.DecisionQualityBenchmark(),
        new io.bamel.bench.node.NodeReactionBenchmark(),
        new io.bamel.bench.node.NodeFleetPowerOnBenchmark(),
        new io.bamel.bench.node.BmcPassBenchmark(),
        new io.bamel.bench.node.IpmiBmcPassBenchmark(),
        new io.bamel.bench.api.ApiSyncBenchmark(),
        new io.bamel.bench.api.NetBoxPullBenchmark(),
        new io.bamel.bench.api.ApiListBenchmark(),
        new io.bamel.bench.api.FleetScaleBenchmark(),
        new io.bamel.bench.endurance.EnduranceBenchmark(),
        new io.bamel.bench.store.EtcdFaultsBenchmark());
  }
}
