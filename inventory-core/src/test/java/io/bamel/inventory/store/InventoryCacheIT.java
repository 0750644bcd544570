package io.bamel.inventory.store;

import static io.bamel.inventory.store.CacheAssertions.awaitCacheEqualsEtcd;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.testing.EtcdCluster;
import io.bamel.inventory.testing.EtcdExtension;
import io.bamel.inventory.testing.StoreEdits;
import io.etcd.jetcd.Client;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class InventoryCacheIT {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @RegisterExtension final EtcdExtension etcd = EtcdExtension.singleNode();

  @Test
  void listsThenFollowsEveryChangeInOrderWithPreviousValues() throws Exception {
    try (Client client = etcd.cluster().client()) {
      EtcdInventory inventory = new EtcdInventory(client);
      for (int i = 0; i < 50; i++) {
        inventory.createNode(TestNodes.id(i), TestNodes.spec(i, "a"), null);
      }
      try (InventoryCache cache = new InventoryCache(client)) {
        List<InventoryChange> all = Collections.synchronizedList(new ArrayList<>());
        Set<String> listenerThreads = ConcurrentHashMap.newKeySet();
        cache.addListener(
            c -> {
              listenerThreads.add(Thread.currentThread().getName());
              all.add(c);
            });
        cache.start();
        assertThat(cache.awaitSynced(Duration.ofSeconds(10))).isTrue();
        assertThat(cache.nodeCount()).isEqualTo(50);
        long listed = cache.revision();
        // The first listing reaches listeners as creations.
        await().atMost(Duration.ofSeconds(5)).until(() -> all.size() >= 51);
        assertThat(all.subList(0, 50))
            .allSatisfy(
                c -> assertThat(c instanceof NodeChange n && n.previous() == null).isTrue());

        long rev =
            StoreEdits.updateSpec(
                    inventory, TestNodes.id(1), s -> s.toBuilder().pool("b").build(), null)
                .revision();
        StoreEdits.updateStatus(
            inventory,
            TestNodes.id(1),
            s -> NodeStatus.initial(T0),
            NodeEvent.of(T0, "seen", null),
            null);
        inventory.deleteNode(TestNodes.id(2), EtcdInventory.ANY_REVISION);
        long last = inventory.putPoolConfig("b", PoolConfig.builder().minNodes(1).build(), 0);
        assertThat(cache.awaitRevision(last, Duration.ofSeconds(10))).isTrue();
        // 50 nodes and pool a listed; then node 1 moved (the node and both pools), its status,
        // node 2 deleted (the node and pool a), pool b's config: 7 changes, each delivered once.
        await().atMost(Duration.ofSeconds(5)).until(() -> all.size() >= 51 + 7);
        Thread.sleep(200); // a duplicate would follow within the same dispatch
        assertThat(all).hasSize(51 + 7);
        assertThat(listenerThreads).containsExactly("bamel-cache-listeners");
        List<InventoryChange> seen;
        synchronized (all) {
          seen = all.stream().filter(c -> c.revision() > listed).toList();
        }

        List<Long> revisions = seen.stream().map(InventoryChange::revision).toList();
        assertThat(revisions).isSorted();
        NodeChange moved = (NodeChange) seen.get(0);
        assertThat(moved.previous().spec().pool()).isEqualTo("a");
        assertThat(moved.current().spec().pool()).isEqualTo("b");
        assertThat(moved.revision()).isEqualTo(rev);
        assertThat(moved.specChanged()).isTrue();
        // The same transaction moved the membership: both pools changed at that revision.
        assertThat(seen)
            .filteredOn(c -> c instanceof PoolChange && c.revision() == rev)
            .extracting(c -> ((PoolChange) c).name())
            .containsExactlyInAnyOrder("a", "b");
        assertThat(seen)
            .filteredOn(c -> c instanceof NodeChange n && n.current() == null)
            .singleElement()
            .satisfies(c -> assertThat(((NodeChange) c).id()).isEqualTo(TestNodes.id(2)));
        assertThat(cache.pool("b").orElseThrow().config().minNodes()).isEqualTo(1);
        assertThat(cache.pool("b").orElseThrow().members()).containsExactly(TestNodes.id(1));
        assertThat(cache.node(TestNodes.id(1)).orElseThrow().status()).isNotNull();
        awaitCacheEqualsEtcd(cache, inventory);
      }
    }
  }

  @Test
  void aListenerAddedAfterSyncSeesNoChangeAppliedBeforeItWasAdded() throws Exception {
    try (Client client = etcd.cluster().client()) {
      EtcdInventory inventory = new EtcdInventory(client);
      for (int i = 0; i < 10; i++) {
        inventory.createNode(TestNodes.id(i), TestNodes.spec(i, "a"), null);
      }
      CountDownLatch release = new CountDownLatch(1);
      try (InventoryCache cache = new InventoryCache(client)) {
        // Holds the dispatcher on the first creation, so the other nine stay queued.
        cache.addListener(
            c -> {
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
        cache.start();
        assertThat(cache.awaitSynced(Duration.ofSeconds(10))).isTrue();
        List<InventoryChange> late = Collections.synchronizedList(new ArrayList<>());
        cache.addListener(late::add);
        release.countDown();
        long rev =
            StoreEdits.updateSpec(
                    inventory, TestNodes.id(1), s -> s.toBuilder().pool("b").build(), null)
                .revision();
        await()
            .atMost(Duration.ofSeconds(10))
            .until(() -> late.stream().anyMatch(c -> c.revision() == rev));
        assertThat(late).allSatisfy(c -> assertThat(c.revision()).isEqualTo(rev));
      }
    }
  }

  @Test
  void aValueItCannotReadIsAbsentAndCountedAndDoesNotStopTheCache() throws Exception {
    try (Client client = etcd.cluster().client()) {
      EtcdInventory inventory = new EtcdInventory(client);
      for (int i = 0; i < 3; i++) {
        inventory.createNode(TestNodes.id(i), TestNodes.spec(i, "a"), null);
      }
      try (InventoryCache cache = new InventoryCache(client).start()) {
        assertThat(cache.awaitSynced(Duration.ofSeconds(10))).isTrue();
        // Written by hand with etcdctl: broken JSON; a state this version does not know.
        put(client, Keys.nodeSpec(TestNodes.id(0)), "{not json");
        put(client, Keys.nodeStatus(TestNodes.id(1)), "{\"state\":\"hibernating\"}");
        long after = put(client, Keys.poolConfig("a"), "[]");
        inventory.createNode(TestNodes.id(3), TestNodes.spec(3, "a"), null);
        long last = inventory.currentRevision();

        assertThat(cache.awaitRevision(last, Duration.ofSeconds(10))).isTrue();
        assertThat(cache.revision()).isGreaterThan(after);
        assertThat(cache.node(TestNodes.id(0))).isEmpty();
        assertThat(cache.node(TestNodes.id(1)).orElseThrow().status()).isNull();
        assertThat(cache.pool("a").orElseThrow().config()).isNull();
        assertThat(cache.node(TestNodes.id(3))).isPresent();
        assertThat(cache.unreadableValues()).isEqualTo(3);

        // Rewritten with a valid value, the node is back.
        put(
            client,
            Keys.nodeSpec(TestNodes.id(0)),
            new String(Codec.encode(TestNodes.spec(0, "a")), StandardCharsets.UTF_8));
        await().atMost(Duration.ofSeconds(10)).until(() -> cache.node(TestNodes.id(0)).isPresent());
      }
      // A fresh cache lists over the remaining unreadable values and syncs.
      try (InventoryCache fresh = new InventoryCache(client).start()) {
        assertThat(fresh.awaitSynced(Duration.ofSeconds(10))).isTrue();
        assertThat(fresh.nodeCount()).isEqualTo(4);
        assertThat(fresh.unreadableValues()).isEqualTo(2);
      }
    }
  }

  private static long put(Client client, String key, String value) throws Exception {
    return client
        .getKVClient()
        .put(Bytes.of(key), Bytes.of(value))
        .get(10, TimeUnit.SECONDS)
        .getHeader()
        .getRevision();
  }

  @Test
  void staysEqualToEtcdAcrossAnEtcdRestart() throws Exception {
    try (Client client = etcd.cluster().client()) {
      EtcdInventory inventory = new EtcdInventory(client);
      for (int i = 0; i < 20; i++) {
        inventory.createNode(TestNodes.id(i), TestNodes.spec(i, "a"), null);
      }
      try (InventoryCache cache = new InventoryCache(client).start()) {
        assertThat(cache.awaitSynced(Duration.ofSeconds(10))).isTrue();
        etcd.cluster().bounce(0);
        etcd.cluster().awaitAvailable(Duration.ofSeconds(30));
        for (int i = 20; i < 40; i++) {
          createWithRetry(inventory, i);
        }
        inventory.deleteNode(TestNodes.id(3), EtcdInventory.ANY_REVISION);
        awaitCacheEqualsEtcd(cache, inventory);
        assertThat(cache.nodeCount()).isEqualTo(39);
      }
    }
  }

  @Test
  void relistsAfterACompactionPastItsRevisionWhileItsWatchWasDown() throws Exception {
    try (EtcdCluster cluster = EtcdCluster.start(3);
        Client all = cluster.client();
        Client onlyMember0 = Client.builder().endpoints(cluster.endpoints().get(0)).build()) {
      EtcdInventory inventory = new EtcdInventory(all);
      for (int i = 0; i < 30; i++) {
        inventory.createNode(TestNodes.id(i), TestNodes.spec(i, "a"), null);
      }
      try (InventoryCache cache = new InventoryCache(onlyMember0).start()) {
        assertThat(cache.awaitSynced(Duration.ofSeconds(10))).isTrue();
        Map<String, Integer> deliveries = new HashMap<>();
        cache.addListener(
            c -> {
              if (c instanceof NodeChange n) {
                synchronized (deliveries) {
                  deliveries.merge(n.id(), 1, Integer::sum);
                }
              }
            });
        long relistsBefore = cache.relists();

        cluster.stop(0); // the cache's only member: its watch is down
        for (int i = 30; i < 60; i++) {
          createWithRetry(inventory, i);
        }
        inventory.deleteNode(TestNodes.id(5), EtcdInventory.ANY_REVISION);
        StoreEdits.updateSpec(
            inventory, TestNodes.id(6), s -> s.toBuilder().pool("b").build(), null);
        cluster.compact(inventory.currentRevision());
        cluster.restart(0);

        awaitCacheEqualsEtcd(cache, inventory);
        assertThat(cache.relists()).isGreaterThan(relistsBefore);
        assertThat(cache.nodeCount()).isEqualTo(59);
        // Listeners caught up through the relist: each missed change once.
        await()
            .atMost(Duration.ofSeconds(10))
            .untilAsserted(
                () -> {
                  synchronized (deliveries) {
                    assertThat(deliveries).hasSize(32);
                    assertThat(deliveries.values()).allMatch(n -> n == 1);
                  }
                });
      }
    }
  }

  @Test
  void staysEqualToEtcdWhenAThreeMemberClusterLosesItsLeader() throws Exception {
    try (EtcdCluster cluster = EtcdCluster.start(3);
        Client client = cluster.client()) {
      EtcdInventory inventory = new EtcdInventory(client);
      for (int i = 0; i < 20; i++) {
        inventory.createNode(TestNodes.id(i), TestNodes.spec(i, "a"), null);
      }
      try (InventoryCache cache = new InventoryCache(client).start()) {
        assertThat(cache.awaitSynced(Duration.ofSeconds(10))).isTrue();
        int leader = cluster.leader();
        assertThat(leader).isNotNegative();
        cluster.kill(leader);
        for (int i = 20; i < 40; i++) {
          createWithRetry(inventory, i);
        }
        awaitCacheEqualsEtcd(cache, inventory);
        assertThat(cluster.leader()).isNotEqualTo(leader).isNotNegative();
        cluster.restart(leader);
        inventory.deleteNode(TestNodes.id(0), EtcdInventory.ANY_REVISION);
        awaitCacheEqualsEtcd(cache, inventory);
        assertThat(cache.node(TestNodes.id(0))).isEmpty();
      }
    }
  }

  /** Creates node {@code i}, retrying while etcd recovers; tolerant of a retried success. */
  private static void createWithRetry(EtcdInventory inventory, int i) {
    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreException(StoreUnavailableException.class)
        .until(
            () -> {
              try {
                inventory.createNode(TestNodes.id(i), TestNodes.spec(i, "a"), null);
              } catch (AlreadyExistsException e) {
                // An earlier attempt committed before its answer was lost.
              }
              return inventory
                  .getNode(TestNodes.id(i))
                  .map(Node::spec)
                  .filter(Objects::nonNull)
                  .isPresent();
            });
  }
}
