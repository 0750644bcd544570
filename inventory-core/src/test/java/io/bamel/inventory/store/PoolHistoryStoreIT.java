package io.bamel.inventory.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.leader.LeaderElection;
import io.bamel.inventory.leader.Leaderships;
import io.bamel.inventory.model.Pool;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PoolStatus;
import io.bamel.inventory.testing.EtcdExtension;
import io.etcd.jetcd.Client;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code /baremetal/pools/{pool}/history} at the store: an opaque value, written fenced and only
 * while the pool has a config, deleted with the pool, and ignored by the inventory cache (the pools
 * it lists are the same with or without it, whatever it holds).
 */
class PoolHistoryStoreIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  private static final byte[] HISTORY =
      "{\"version\":1,\"learnedAtHour\":[],\"peaks\":{}}".getBytes(StandardCharsets.UTF_8);

  @Test
  void writtenFencedOnlyWhileThePoolHasAConfigAndDeletedWithIt() throws Exception {
    try (Client client = ETCD.cluster().client();
        LeaderElection leader =
            new LeaderElection(client, "pool-controller", "a", LeaderElection.Options.DEFAULTS)) {
      EtcdInventory store = new EtcdInventory(client);
      WriteFence fence = Leaderships.lead(leader);
      assertThat(store.getPoolHistory("gpu")).isEmpty();

      long before = store.currentRevision();
      assertThatThrownBy(() -> store.putPoolHistory("gpu", HISTORY, fence))
          .as("no config: a write racing the pool's deletion leaves nothing")
          .isInstanceOf(NotFoundException.class);
      assertThat(store.currentRevision()).isEqualTo(before);

      store.putPoolConfig("gpu", PoolConfig.builder().build(), 0);
      store.putPoolStatus("gpu", PoolStatus.builder().desiredNodes(1).build(), fence);
      long rev = store.putPoolHistory("gpu", HISTORY, fence);
      assertThat(rev).isEqualTo(store.currentRevision());
      assertThat(store.getPoolHistory("gpu")).hasValue(HISTORY);
      assertThat(store.poolNames()).containsExactly("gpu");

      // A deposed leader's write is refused.
      WriteFence stale = new WriteFence(fence.key(), fence.createRevision() + 1000);
      assertThatThrownBy(() -> store.putPoolHistory("gpu", "{}".getBytes(), stale))
          .isInstanceOf(FencedException.class);
      assertThat(store.getPoolHistory("gpu")).hasValue(HISTORY);

      assertThat(store.deletePool("gpu", EtcdInventory.ANY_REVISION)).isTrue();
      assertThat(store.getPoolHistory("gpu")).isEmpty();
      assertThat(store.getPool("gpu")).isEmpty();
      assertThat(store.poolNames()).isEmpty();
    }
  }

  @Test
  void theCacheListsTheSamePoolsWhateverAHistoryHolds() throws Exception {
    try (Client client = ETCD.cluster().client()) {
      EtcdInventory store = new EtcdInventory(client);
      store.putPoolConfig("a", PoolConfig.builder().minNodes(1).build(), 0);
      store.putPoolHistory("a", HISTORY, null);
      try (InventoryCache cache = new InventoryCache(client).start()) {
        assertThat(cache.awaitSynced(Duration.ofSeconds(10))).isTrue();
        Pool listed = cache.pool("a").orElseThrow();
        assertThat(listed.config().minNodes()).isEqualTo(1);
        // Anything under the key, even what no JSON reader takes, is not the cache's business.
        store.putPoolHistory("a", "{not json".getBytes(StandardCharsets.UTF_8), null);
        store.putPoolConfig("b", PoolConfig.builder().build(), 0);
        store.putPoolHistory("b", HISTORY, null);
        assertThat(cache.awaitRevision(store.currentRevision(), Duration.ofSeconds(10))).isTrue();
        assertThat(cache.pools()).extracting(Pool::name).containsExactlyInAnyOrder("a", "b");
        assertThat(cache.pool("a").orElseThrow()).isEqualTo(listed);
        assertThat(cache.unreadableValues()).isZero();
      }
      // A fresh cache lists over them.
      try (InventoryCache fresh = new InventoryCache(client).start()) {
        assertThat(fresh.awaitSynced(Duration.ofSeconds(10))).isTrue();
        assertThat(fresh.pools()).extracting(Pool::name).containsExactlyInAnyOrder("a", "b");
        assertThat(fresh.unreadableValues()).isZero();
      }
    }
  }
}
