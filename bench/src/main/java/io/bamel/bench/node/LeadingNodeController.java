package io.bamel.bench.node;

import io.bamel.inventory.cluster.DisconnectedCluster;
import io.bamel.inventory.leader.LeaderElection;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.node.NodeController;
import io.bamel.node.NodeControllerConfig;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerDriverRegistry;
import io.bamel.power.PowerMetrics;
import io.etcd.jetcd.Client;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;

/**
 * A node controller as one server without Kubernetes runs it, for the node benchmarks that time a
 * single leader: its own inventory cache, the leader election of {@link NodeController#COMPONENT}
 * (which it wins alone) and the controller over {@code driver}. {@link #start()} waits for the
 * cache's first listing, starts the controller and the election, and waits for the leadership.
 * Closing closes the controller, then the election, then the cache.
 */
final class LeadingNodeController implements AutoCloseable {

  final InventoryCache cache;
  private final NodeController controller;
  private final LeaderElection election;

  LeadingNodeController(
      Client client,
      NodeControllerConfig config,
      EtcdInventory store,
      PowerDriver driver,
      PrometheusRegistry registry) {
    PowerDriverRegistry drivers =
        new PowerDriverRegistry(new PowerMetrics(new PrometheusRegistry()), Clock.systemUTC())
            .register(driver);
    cache = new InventoryCache(client).start();
    election =
        new LeaderElection(
            client, NodeController.COMPONENT, "bench", LeaderElection.Options.DEFAULTS);
    controller =
        NodeController.builder()
            .config(config)
            .cache(cache)
            .store(store)
            .drivers(drivers)
            .cluster(DisconnectedCluster.INSTANCE)
            .election(election)
            .registry(registry)
            .clock(Clock.systemUTC())
            .build();
  }

  /** Starts the controller once the cache has listed, and waits until it leads. */
  void start() throws InterruptedException {
    if (!cache.awaitSynced(Duration.ofMinutes(2))) {
      throw new IllegalStateException("cache did not sync");
    }
    controller.start();
    election.start();
    if (!election.awaitLeadership(Duration.ofSeconds(30))) {
      throw new IllegalStateException("no leadership");
    }
  }

  @Override
  public void close() {
    controller.close();
    election.close();
    cache.close();
  }
}
