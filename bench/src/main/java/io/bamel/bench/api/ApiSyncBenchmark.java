package io.bamel.bench.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.bench.BenchContext;
import io.bamel.bench.BenchResult;
import io.bamel.bench.Benchmark;
import io.bamel.bench.RawEtcd;
import io.bamel.bench.Timer;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.store.TestNodes;
import io.bamel.inventory.testing.EtcdCluster;
import io.etcd.jetcd.Client;
import java.time.Instant;
import java.util.ArrayList;
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
    Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    ObjectNode body = Codec.mapper().createObjectNode();
    ArrayNode items = body.putArray("items");
    List<Map.Entry<String, byte[]>> raw = new ArrayList<>(6 * n);
    for (int i = 0; i < n; i++) {
      String id = TestNodes.id(i);
      NodeSpec spec = TestNodes.spec(i, "pool-" + (i % 4)).toBuilder().desiredPower(null).build();
      ObjectNode item = items.addObject();
      item.put("id", id);
      item.set("spec", Codec.mapper().valueToTree(spec));
      NodeEvent event = NodeEvent.change(t0, "created", "sync", "bench", "req-" + i);
      raw.addAll(RawEtcd.newNodeKeys(id, spec, event));
    }
    byte[] json = Codec.encode(body);
    int runs = context.quick() ? 1 : 3;
    try (EtcdCluster etcd = EtcdCluster.start(1);
        Client client = etcd.client()) {
      double rawMillis =
          Timer.medianMillis(
              runs,
              new Timer.Trial() {
                @Override
                public void prepare() {
                  etcd.clear();
                }

                @Override
                public void run() throws Exception {
                  RawEtcd.putAll(client, raw, 128);
                }
              });
      etcd.clear();
      try (ApiBench api = new ApiBench(client)) {
        double syncMillis =
            Timer.medianMillis(
                runs,
                new Timer.Trial() {
                  @Override
                  public void prepare() throws Exception {
                    etcd.clear();
                    long rev = etcd.revision();
                    api.cache.awaitRevision(rev, java.time.Duration.ofSeconds(60));
                    while (api.cache.nodeCount() > 0) {
                      Thread.sleep(10);
                    }
                  }

                  @Override
                  public void run() throws Exception {
                    byte[] report = api.send("POST", "/api/v1/sync", json);
                    if (Codec.mapper().readTree(report).get("created").size() != n) {
                      throw new IllegalStateException("the sync did not create every node");
                    }
                  }
                });
        long before = etcd.revision();
        double resyncMillis =
            Timer.medianMillis(
                runs,
                () -> {
                  byte[] report = api.send("POST", "/api/v1/sync", json);
                  if (Codec.mapper().readTree(report).get("unchanged").size() != n) {
                    throw new IllegalStateException("the re-sync found changes");
                  }
                });
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
