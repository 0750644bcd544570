package io.bamel.bench.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.bench.RawEtcd;
import io.bamel.bench.Timer;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.store.TestNodes;
import io.bamel.inventory.testing.EtcdCluster;
import io.etcd.jetcd.Client;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A DCIM sync of {@code count} new nodes into a running fleet of {@code fleet} nodes ({@code POST
 * /api/v1/sync}, answered once the cache shows the writes), the raw transactions writing the same
 * keys, and the removal of those keys between runs (so every run adds to the same fleet).
 */
final class FleetSync {

  private final EtcdCluster etcd;
  private final Client client;
  private final ApiBench api;
  private final int fleet;
  private final int count;
  private final byte[] json;
  private final List<Map.Entry<String, byte[]>> raw;
  private final List<String> keys;

  FleetSync(EtcdCluster etcd, Client client, ApiBench api, int fleet, int count, int pools) {
    this.etcd = etcd;
    this.client = client;
    this.api = api;
    this.fleet = fleet;
    this.count = count;
    ObjectNode body = Codec.mapper().createObjectNode();
    ArrayNode items = body.putArray("items");
    raw = new ArrayList<>(6 * count);
    for (int i = fleet; i < fleet + count; i++) {
      String id = TestNodes.id(i);
      NodeSpec spec =
          TestNodes.spec(i, "pool-" + (i % pools)).toBuilder().desiredPower(null).build();
      ObjectNode item = items.addObject();
      item.put("id", id);
      item.set("spec", Codec.mapper().valueToTree(spec));
      raw.addAll(
          RawEtcd.newNodeKeys(
              id, spec, NodeEvent.change(FleetKeys.T0, "created", "sync", "bench", "req-" + i)));
    }
    json = Codec.encode(body);
    keys = raw.stream().map(Map.Entry::getKey).toList();
  }

  /** The sync through the API, after removing the new nodes (untimed). */
  Timer.Trial sync() {
    return new Timer.Trial() {
      @Override
      public void prepare() throws Exception {
        removeNew();
      }

      @Override
      public void run() throws Exception {
        byte[] report = api.send("POST", "/api/v1/sync", json);
        if (Codec.mapper().readTree(report).get("created").size() != count) {
          throw new IllegalStateException("the sync did not create every node");
        }
      }
    };
  }

  /** The raw transactions of 128 puts writing the same keys, after removing the new nodes. */
  Timer.Trial raw() {
    return new Timer.Trial() {
      @Override
      public void prepare() throws Exception {
        removeNew();
      }

      @Override
      public void run() throws Exception {
        RawEtcd.putAll(client, raw, 128);
      }
    };
  }

  /** The keys and values the sync writes, in the raw baseline's order (six per node). */
  List<Map.Entry<String, byte[]>> rawKeys() {
    return raw;
  }

  /** Deletes the new nodes' keys and waits until the cache holds the fleet alone again. */
  void removeNew() throws Exception {
    RawEtcd.deleteAll(client, keys, 128);
    if (!api.cache.awaitRevision(etcd.revision(), Duration.ofSeconds(60))) {
      throw new IllegalStateException("the cache did not follow the deletes");
    }
    while (api.cache.nodeCount() != fleet) {
      Thread.sleep(10);
    }
  }
}
