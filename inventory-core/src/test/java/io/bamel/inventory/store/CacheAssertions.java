package io.bamel.inventory.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.Pool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Compares an {@link InventoryCache} with what etcd holds, read afresh. */
final class CacheAssertions {

  private CacheAssertions() {}

  /** Waits until the cache holds exactly etcd's nodes and pools (values and revisions). */
  static void awaitCacheEqualsEtcd(InventoryCache cache, EtcdInventory inventory) {
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () -> {
              Map<String, Node> fromEtcd = allNodes(inventory);
              Map<String, Node> fromCache =
                  cache.nodes().stream()
                      .collect(
                          Collectors.toMap(
                              Node::id, Function.identity(), (a, b) -> a, TreeMap::new));
              assertThat(fromCache).isEqualTo(fromEtcd);
              for (Pool pool : cache.pools()) {
                assertThat(inventory.getPool(pool.name())).contains(pool);
              }
              // Both ways: a pool etcd has (even with only a config) is in the cache.
              assertThat(cache.pools().stream().map(Pool::name).sorted().toList())
                  .isEqualTo(inventory.poolNames());
            });
  }

  static Map<String, Node> allNodes(EtcdInventory inventory) {
    List<Node> nodes = new ArrayList<>();
    NodePage page = inventory.listNodes(null, 500, 0);
    nodes.addAll(page.items());
    while (page.next() != null) {
      page = inventory.listNodes(page.next(), 500, page.revision());
      nodes.addAll(page.items());
    }
    return nodes.stream()
        .collect(Collectors.toMap(Node::id, Function.identity(), (a, b) -> a, TreeMap::new));
  }
}
