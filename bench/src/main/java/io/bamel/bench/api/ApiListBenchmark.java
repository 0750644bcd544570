package io.bamel.bench.api;

import io.bamel.bench.BenchContext;
import io.bamel.bench.BenchResult;
import io.bamel.bench.Benchmark;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.store.BatchItem;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.Keys;
import io.bamel.inventory.store.TestNodes;
import io.bamel.inventory.testing.EtcdCluster;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code GET /api/v1/nodes?pool=X} for a pool of N/4 of N nodes (served from the cache) against an
 * etcd range read of the same nodes (their keys are contiguous, so one range holds exactly them):
 * p99 of each over the same number of sequential requests. Target: the API at least 5 times faster
 * (ratio at most 0.2).
 */
public final class ApiListBenchmark implements Benchmark {

  @Override
  public String name() {
    return "api-list-pool";
  }

  @Override
  public List<BenchResult> run(BenchContext context) throws Exception {
    int n = context.size("listNodes", 10_000);
    int perPool = n / 4;
    int requests = context.quick() ? 50 : 300;
    try (EtcdCluster etcd = EtcdCluster.start(1);
        Client client = etcd.client()) {
      EtcdInventory store = new EtcdInventory(client);
      Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
      List<BatchItem> items = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        items.add(
            BatchItem.upsert(
                TestNodes.id(i),
                TestNodes.spec(i, "pool-" + (i / perPool)),
                NodeEvent.of(t0, "created", null)));
      }
      store.upsertAll(items);
      ByteSequence from = bytes(Keys.node(TestNodes.id(perPool)));
      ByteSequence to = bytes(Keys.node(TestNodes.id(2 * perPool)));
      GetOption range = GetOption.builder().withRange(to).build();
      double[] raw = new double[requests];
      for (int warm = 0; warm < 20; warm++) {
        client.getKVClient().get(from, range).get(30, TimeUnit.SECONDS);
      }
      for (int i = 0; i < requests; i++) {
        long start = System.nanoTime();
        GetResponse r = client.getKVClient().get(from, range).get(30, TimeUnit.SECONDS);
        raw[i] = (System.nanoTime() - start) / 1e6;
        if (r.getKvs().size() < perPool) {
          throw new IllegalStateException("the range read missed nodes");
        }
      }
      double[] api = new double[requests];
      try (ApiBench bench = new ApiBench(client)) {
        String path = "/api/v1/nodes?pool=pool-1&limit=" + n;
        for (int warm = 0; warm < 20; warm++) {
          bench.send("GET", path, null);
        }
        for (int i = 0; i < requests; i++) {
          long start = System.nanoTime();
          byte[] body = bench.send("GET", path, null);
          api[i] = (System.nanoTime() - start) / 1e6;
          if (i == 0 && !new String(body, 0, 200, StandardCharsets.UTF_8).contains("pool-1")) {
            throw new IllegalStateException("the listing is not pool-1's");
          }
        }
      }
      return List.of(
          BenchResult.ratioAtMost(
              name(),
              String.format("p99 GET ?pool (%,d of %,d) vs etcd range", perPool, n),
              percentile(api, 0.99),
              percentile(raw, 0.99),
              "ms",
              0.2),
          new BenchResult(
              name(),
              String.format("p50 GET ?pool (%,d of %,d) vs etcd range (info)", perPool, n),
              percentile(api, 0.5),
              percentile(raw, 0.5),
              "ms",
              percentile(api, 0.5) / percentile(raw, 0.5),
              "info",
              true));
    }
  }

  private static double percentile(double[] millis, double p) {
    double[] sorted = millis.clone();
    Arrays.sort(sorted);
    return sorted[Math.max(0, Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * p) - 1))];
  }

  private static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }
}
