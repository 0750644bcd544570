package io.bamel.bench.store;

import io.bamel.bench.BenchContext;
import io.bamel.bench.BenchResult;
import io.bamel.bench.Benchmark;
import io.bamel.bench.Heap;
import io.bamel.bench.RawEtcd;
import io.bamel.bench.Timer;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.store.Keys;
import io.bamel.inventory.store.TestNodes;
import io.bamel.inventory.testing.EtcdCluster;
import io.etcd.jetcd.Client;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@link InventoryCache} cold start (paged list, decode, index, ready to serve) for N nodes with a
 * spec, a status and a pool membership each, against a raw paged range of the same keys with the
 * same page size. Target ratio: at most 2. Also reports the heap the cache holds at the largest
 * size (target: at most 300 MiB at 100,000 nodes).
 */
public final class CacheColdStartBenchmark implements Benchmark {

  private static final int PAGE = InventoryCache.Options.DEFAULTS.pageSize();

  @Override
  public String name() {
    return "cache-cold-start";
  }

  @Override
  public List<BenchResult> run(BenchContext context) throws Exception {
    List<BenchResult> rows = new ArrayList<>();
    int small = context.size("cacheNodesSmall", 10_000);
    int large = context.size("cacheNodesLarge", 100_000);
    try (EtcdCluster etcd = EtcdCluster.start(1);
        Client client = etcd.client()) {
      int loaded = 0;
      for (int target : List.of(small, large)) {
        load(client, loaded, target);
        loaded = target;
        int runs = context.quick() ? 1 : 5;
        double[] medians =
            Timer.interleavedMedians(
                runs,
                () -> {
                  try (InventoryCache cache = new InventoryCache(client).start()) {
                    if (!cache.awaitSynced(Duration.ofMinutes(5)) || cache.nodeCount() != target) {
                      throw new IllegalStateException("cache did not sync " + target + " nodes");
                    }
                  }
                },
                () -> {
                  RawEtcd.rangeAll(client, Keys.NODES, PAGE);
                  RawEtcd.rangeAll(client, Keys.POOLS, PAGE);
                });
        double bamel = medians[0];
        double raw = medians[1];
        rows.add(
            BenchResult.ratioAtMost(
                name(),
                String.format("%,d nodes vs raw paged range", target),
                bamel,
                raw,
                "ms",
                2.0));
      }
      rows.add(heapRow(client, large));
    }
    return rows;
  }

  private BenchResult heapRow(Client client, int nodes) throws Exception {
    long before = usedHeapAfterGc();
    try (InventoryCache cache = new InventoryCache(client).start()) {
      cache.awaitSynced(Duration.ofMinutes(5));
      long after = usedHeapAfterGc();
      double mib = (after - before) / (1024.0 * 1024.0);
      double budget = 300.0 * nodes / 100_000;
      return new BenchResult(
          name(),
          String.format("heap held at %,d nodes", nodes),
          mib,
          budget,
          "MiB",
          mib / budget,
          "<= 1 (300 MiB per 100k)",
          mib <= budget);
    }
  }

  private static void load(Client client, int from, int to) throws Exception {
    byte[] status = RawEtcd.offStatus(Instant.parse("2026-01-01T00:00:00Z"));
    List<Map.Entry<String, byte[]>> kvs = new ArrayList<>();
    for (int i = from; i < to; i++) {
      String id = TestNodes.id(i);
      var spec = TestNodes.spec(i, "pool-" + (i % 100));
      kvs.add(Map.entry(Keys.nodeSpec(id), Codec.encode(spec)));
      kvs.add(Map.entry(Keys.nodeStatus(id), status));
      kvs.add(Map.entry(Keys.poolMember(spec.pool(), id), new byte[0]));
    }
    RawEtcd.putAll(client, kvs, 128);
  }

  private static long usedHeapAfterGc() throws InterruptedException {
    return Heap.usedAfterGc();
  }
}
