package io.bamel.bench.pool;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.leader.LeaderElection;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.pool.PoolController;
import io.etcd.jetcd.Client;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * A pool controller as a server runs it (its own cache, a won election), ready to be timed: its
 * first cycle has written every pool's first status, the cache holds that write, and ten more
 * cycles have let the JIT compile the loop. Closing it closes the controller, the election and the
 * cache (the client and the cluster stay the caller's).
 */
final class WarmPoolController implements AutoCloseable {

  private static final int WARM_UP_CYCLES = 10;

  final EtcdInventory store;
  final InventoryCache cache;
  final PoolController controller;
  private final LeaderElection election;

  /**
   * Starts the controller over {@code client} and {@code cluster}; {@code more} adds builder
   * settings (an interval, say) to the shared ones.
   */
  WarmPoolController(Client client, Cluster cluster, UnaryOperator<PoolController.Builder> more)
      throws InterruptedException {
    store = new EtcdInventory(client);
    cache = new InventoryCache(client).start();
    election =
        new LeaderElection(client, "pool-controller", "bench", LeaderElection.Options.DEFAULTS)
            .start();
    controller =
        more.apply(
                PoolController.builder()
                    .store(store)
                    .cache(cache)
                    .cluster(cluster)
                    .election(election)
                    .registry(new PrometheusRegistry())
                    .canPowerOff(n -> true))
            .build();
    if (!cache.awaitSynced(Duration.ofMinutes(2))
        || !election.awaitLeadership(Duration.ofSeconds(30))) {
      close();
      throw new IllegalStateException("cache or leadership not ready");
    }
    controller.runCycle(); // writes every pool's first status
    cache.awaitRevision(store.currentRevision(), Duration.ofSeconds(30));
    for (int i = 0; i < WARM_UP_CYCLES; i++) {
      controller.runCycle(); // a server runs this loop forever: let the JIT compile it
    }
  }

  @Override
  public void close() {
    controller.close();
    election.close();
    cache.close();
  }
}
