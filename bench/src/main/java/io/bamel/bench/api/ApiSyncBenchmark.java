package io.bamel.bench.api;

import io.bamel.bench.BenchContext;
import io.bamel.bench.BenchResult;
import io.bamel.bench.Benchmark;
import io.bamel.bench.RawEtcd;
import io.bamel.bench.Timer;
import io.bamel.inventory.testing.EtcdCluster;
import io.etcd.jetcd.Client;
import java.util.List;
import java.util.Map;

/**
 * DCIM sync of N nodes through {@code POST /api/v1/sync} (HTTP, JSON parsing, validation, matching
 * against the cache, unique fields, batched CAS transactions with the member index and one event
 * per node, read-your-writes) against raw jetcd transactions of 128 puts writing the same keys:
 * target at most 2.0. Then the same set again, unchanged (nothing is written): target at most 0.2
 * of the raw write time.
 */
public final class ApiSyncBenchmark implements Benchmark {

  @Override
  public String name() {
    return "api-sync";
  }

  @Override
  public List<BenchResult> run(BenchContext context) throws Exception {
    int n = context.size("syncNodes", 10_000);
    NewNodes nodes = NewNodes.of(0, n, 4);
    byte[] json = nodes.syncBody();
    List<Map.Entry<String, byte[]>> raw = nodes.rawKeys();
    int runs = context.quick() ? 1 : 3;
    try (EtcdCluster etcd = EtcdCluster.start(1);
        Client client = etcd.client()) {
      double rawMillis =
          Timer.medianMillis(
              runs, Timer.Trial.of(etcd::clear, () -> RawEtcd.putAll(client, raw, 128)));
      etcd.clear();
      try (ApiBench api = new ApiBench(client)) {
        double syncMillis =
            Timer.medianMillis(runs, api.syncIntoEmpty(etcd, "/api/v1/sync", json, n));
        long before = etcd.revision();
        double resyncMillis =
            Timer.medianMillis(runs, () -> api.sync("/api/v1/sync", json, "unchanged", n));
        if (etcd.revision() != before) {
          throw new IllegalStateException("the unchanged re-sync wrote to etcd");
        }
        return List.of(
            BenchResult.ratioAtMost(
                name(),
                String.format("sync %,d nodes vs raw txns", n),
                syncMillis,
                rawMillis,
                "ms",
                2.0),
            BenchResult.ratioAtMost(
                name(),
                String.format("re-sync %,d unchanged vs raw txns", n),
                resyncMillis,
                rawMillis,
                "ms",
                0.2));
      }
    }
  }
}
