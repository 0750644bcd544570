package io.bamel.bench.api;

import io.bamel.bench.RawEtcd;
import io.bamel.bench.Timer;
import io.bamel.inventory.testing.EtcdCluster;
import io.etcd.jetcd.Client;
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
    NewNodes nodes = NewNodes.of(fleet, fleet + count, pools);
    json = nodes.syncBody();
    raw = nodes.rawKeys();
    keys = raw.stream().map(Map.Entry::getKey).toList();
  }

  /** The sync through the API, after removing the new nodes (untimed). */
  Timer.Trial sync() {
    return Timer.Trial.of(this::removeNew, () -> api.sync("/api/v1/sync", json, "created", count));
  }

  /** The raw transactions of 128 puts writing the same keys, after removing the new nodes. */
  Timer.Trial raw() {
    return Timer.Trial.of(this::removeNew, () -> RawEtcd.putAll(client, raw, 128));
  }

  /** The keys and values the sync writes, in the raw baseline's order (six per node). */
  List<Map.Entry<String, byte[]>> rawKeys() {
    return raw;
  }

  /** Deletes the new nodes' keys and waits until the cache holds the fleet alone again. */
  void removeNew() throws Exception {
    RawEtcd.deleteAll(client, keys, 128);
    api.awaitNodes(etcd.revision(), fleet);
  }
}
