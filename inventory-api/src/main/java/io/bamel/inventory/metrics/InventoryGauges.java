package io.bamel.inventory.metrics;

import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.store.InventoryCache;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Inventory gauges, computed from the {@link InventoryCache} when Prometheus scrapes (never from
 * etcd): {@code bamel_nodes{pool,state}} (nodes without a pool count under {@code pool=""}; every
 * state of every pool is exported, 0 included), {@code bamel_pools}, {@code
 * bamel_inventory_revision} (the etcd revision the cache has applied, a staleness signal), and
 * {@code bamel_inventory_unreadable_values_total} (stored values the cache could not decode and
 * treats as absent: broken JSON written by hand, or a newer bamel's values).
 */
public final class InventoryGauges {

  private InventoryGauges() {}

  /** Registers the gauges over {@code cache} in {@code registry}. */
  public static void register(PrometheusRegistry registry, InventoryCache cache) {
    GaugeWithCallback.builder()
        .name("bamel_nodes")
        .help("Nodes in the inventory, by pool and lifecycle state.")
        .labelNames("pool", "state")
        .callback(
            callback -> {
              for (Map.Entry<String, Integer> e : countByPoolAndState(cache).entrySet()) {
                String[] labels = e.getKey().split("\u0000", 2);
                callback.call(e.getValue(), labels[0], labels[1]);
              }
            })
        .register(registry);
    GaugeWithCallback.builder()
        .name("bamel_pools")
        .help("Pools in the inventory.")
        .callback(callback -> callback.call(cache.pools().size()))
        .register(registry);
    GaugeWithCallback.builder()
        .name("bamel_inventory_revision")
        .help("The etcd revision the inventory cache has applied.")
        .callback(callback -> callback.call(cache.revision()))
        .register(registry);
    CounterWithCallback.builder()
        .name("bamel_inventory_unreadable_values_total")
        .help("Stored values the inventory cache could not decode (treated as absent).")
        .callback(callback -> callback.call(cache.unreadableValues()))
        .register(registry);
  }

  /**
   * Node counts keyed by {@code pool NUL state}: every state of every pool in the inventory and of
   * {@code pool=""} is present, 0 included (so "nodes in error" is 0, not absent), as are the pools
   * that nodes name without the pool existing.
   */
  static Map<String, Integer> countByPoolAndState(InventoryCache cache) {
    Map<String, Integer> counts = new HashMap<>();
    List<String> pools = new ArrayList<>();
    pools.add("");
    cache.pools().forEach(p -> pools.add(p.name()));
    for (String pool : pools) {
      for (NodeState state : NodeState.values()) {
        counts.put(pool + "\u0000" + state.json(), 0);
      }
    }
    for (Node node : cache.nodes()) {
      String pool = node.spec().pool() == null ? "" : node.spec().pool();
      counts.merge(pool + "\u0000" + node.state(), 1, Integer::sum);
    }
    return counts;
  }
}
