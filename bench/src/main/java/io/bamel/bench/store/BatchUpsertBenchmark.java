package io.bamel.bench.store;

import io.bamel.bench.BenchContext;
import io.bamel.bench.BenchResult;
import io.bamel.bench.Benchmark;
import io.bamel.bench.RawEtcd;
import io.bamel.bench.Timer;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.store.BatchItem;
import io.bamel.inventory.store.BatchResult;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.TestNodes;
import io.bamel.inventory.testing.EtcdCluster;
import io.etcd.jetcd.Client;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Batch upsert of N new nodes through {@link EtcdInventory#upsertAll} (validation, the read of what
 * is stored, CAS guards, the member index and one event per node), against raw jetcd transactions
 * of 128 puts writing the same keys and bytes. Target ratio: at most 1.5.
 */
public final class BatchUpsertBenchmark implements Benchmark {

  @Override
  public String name() {
    return "batch-upsert";
  }

  @Override
  public List<BenchResult> run(BenchContext context) throws Exception {
    int n = context.size("batchNodes", 10_000);
    Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    List<BatchItem> items = new ArrayList<>(n);
    List<Map.Entry<String, byte[]>> raw = new ArrayList<>(6 * n);
    for (int i = 0; i < n; i++) {
      String id = TestNodes.id(i);
      var spec = TestNodes.spec(i, "pool-" + (i % 4));
      NodeEvent event = NodeEvent.of(t0, "synced", "created by batch");
      items.add(BatchItem.upsert(id, spec, event));
      raw.addAll(RawEtcd.newNodeKeys(id, spec, event));
    }
    try (EtcdCluster etcd = EtcdCluster.start(1);
        Client client = etcd.client()) {
      EtcdInventory inventory = new EtcdInventory(client);
      int runs = context.quick() ? 1 : 5;
      double[] medians =
          Timer.interleavedMedians(
              runs,
              Timer.Trial.of(
                  etcd::clear,
                  () -> {
                    List<BatchResult> results = inventory.upsertAll(items);
                    if (results.stream()
                        .anyMatch(r -> r.outcome() != BatchResult.Outcome.CREATED)) {
                      throw new IllegalStateException("batch upsert did not create every node");
                    }
                  }),
              Timer.Trial.of(etcd::clear, () -> RawEtcd.putAll(client, raw, 128)));
      double bamelMillis = medians[0];
      double rawMillis = medians[1];
      return List.of(
          BenchResult.ratioAtMost(
              name(),
              String.format("%,d nodes vs raw txns", n),
              bamelMillis,
              rawMillis,
              "ms",
              1.5));
    }
  }
}
