package io.bamel.bench.api;

import io.bamel.bench.RawEtcd;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.store.Keys;
import io.bamel.inventory.store.TestNodes;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A fleet written straight into etcd as bamel lays it out: for node {@code i} of {@code n}, in pool
 * {@code pool-(i % pools)}, the spec, the pool member key, a first event and the unique-value index
 * keys ({@link RawEtcd#newNodeKeys}), and a status (off, as the node controller leaves a node it
 * found off).
 */
final class FleetKeys {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private FleetKeys() {}

  /** Writes nodes {@code from} (inclusive) to {@code to} (exclusive). */
  static void load(Client client, int from, int to, int pools) throws Exception {
    byte[] status = RawEtcd.offStatus(T0);
    List<Map.Entry<String, byte[]>> kvs = new ArrayList<>();
    for (int i = from; i < to; i++) {
      String id = TestNodes.id(i);
      NodeSpec spec = TestNodes.spec(i, "pool-" + (i % pools));
      kvs.addAll(RawEtcd.newNodeKeys(id, spec, NodeEvent.of(T0, "created", "loaded")));
      kvs.add(Map.entry(Keys.nodeStatus(id), status));
      if (kvs.size() >= 50_000) {
        putConcurrently(client, kvs);
        kvs.clear();
      }
    }
    putConcurrently(client, kvs);
  }

  /**
   * Writes {@code kvs} in transactions of 128 puts, 16 at a time (loading is not timed: etcd
   * commits concurrent transactions together, which makes a 100,000-node load minutes shorter).
   */
  private static void putConcurrently(Client client, List<Map.Entry<String, byte[]>> kvs)
      throws Exception {
    List<CompletableFuture<TxnResponse>> inFlight = new ArrayList<>();
    for (int start = 0; start < kvs.size(); start += 128) {
      List<Op> ops = new ArrayList<>();
      for (Map.Entry<String, byte[]> kv : kvs.subList(start, Math.min(kvs.size(), start + 128))) {
        ops.add(
            Op.put(
                ByteSequence.from(kv.getKey(), StandardCharsets.UTF_8),
                ByteSequence.from(kv.getValue()),
                PutOption.DEFAULT));
      }
      inFlight.add(client.getKVClient().txn().Then(ops.toArray(Op[]::new)).commit());
      if (inFlight.size() == 16) {
        for (CompletableFuture<TxnResponse> f : inFlight) {
          f.get(60, TimeUnit.SECONDS);
        }
        inFlight.clear();
      }
    }
    for (CompletableFuture<TxnResponse> f : inFlight) {
      f.get(60, TimeUnit.SECONDS);
    }
  }
}
