package io.bamel.bench.node;

import io.bamel.inventory.cluster.DisconnectedCluster;
import io.bamel.inventory.sharding.ReplicaRegistry;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.testing.EtcdCluster;
import io.bamel.node.NodeController;
import io.bamel.node.NodeControllerConfig;
import io.bamel.power.PowerDriverRegistry;
import io.bamel.power.PowerMetrics;
import io.bamel.power.Sleeper;
import io.bamel.power.redfish.RedfishConfig;
import io.bamel.power.redfish.RedfishDriver;
import io.bamel.power.sim.SimulatorCredentials;
import io.etcd.jetcd.Client;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;

/**
 * One {@code bamel server} replica of the BMC pass benchmark, as a server with {@code
 * nodeController.sharded: true} wires it ({@code BamelServer}): its own etcd client, inventory
 * cache, {@link ReplicaRegistry} (lease of the shipped 15 s TTL) and sharded {@link
 * NodeController}, with its own Redfish driver wrapped in a {@link PassRecorder}. Only the Redfish
 * credential (the simulator speaks plain HTTP on loopback), the sync interval, its jitter (none)
 * and the draw interval (when given) differ from a server's.
 */
final class PassReplica implements AutoCloseable {

  final String name;
  final Client client;
  final InventoryCache cache;
  final ReplicaRegistry registry;
  final PassRecorder recorder;
  private final PowerDriverRegistry drivers;
  private NodeController controller;
  private boolean cut;

  PassReplica(EtcdCluster etcd, String name) {
    this(
        etcd,
        name,
        new RedfishDriver(
            SimulatorCredentials.PLAIN_HTTP,
            RedfishConfig.defaults(),
            Clock.systemUTC(),
            Sleeper.SYSTEM));
  }

  /** A replica whose controller reaches the BMCs through {@code driver} (the IPMI row's). */
  PassReplica(EtcdCluster etcd, String name, io.bamel.power.PowerDriver driver) {
    this.name = name;
    this.client = etcd.client();
    this.cache = new InventoryCache(client).start();
    this.registry = new ReplicaRegistry(client, name, ReplicaRegistry.Options.DEFAULTS).start();
    this.recorder = new PassRecorder(driver);
    this.drivers =
        new PowerDriverRegistry(new PowerMetrics(new PrometheusRegistry()), Clock.systemUTC())
            .register(recorder);
  }

  /**
   * Starts the node controller with the shipped defaults but {@code syncInterval} and no jitter of
   * it, so that replicas started together pass together: their timed passes overlap on the bench
   * machine's cores, the hardest case for a machine that runs all of them.
   */
  void startController(Duration syncInterval) {
    startController(syncInterval, NodeControllerConfig.DEFAULTS.readingsInterval());
  }

  /** {@link #startController(Duration)} with a power draw read every {@code drawInterval}. */
  void startController(Duration syncInterval, Duration drawInterval) {
    NodeControllerConfig d = NodeControllerConfig.DEFAULTS;
    NodeControllerConfig config =
        new NodeControllerConfig(
            d.workers(),
            d.bmcConcurrency(),
            syncInterval,
            0,
            d.pollInterval(),
            d.backoffBase(),
            d.backoffMax(),
            d.bmcCallTimeout(),
            d.timeouts(),
            d.shutdownTimeout(),
            d.readings(),
            drawInterval);
    controller =
        NodeController.builder()
            .config(config)
            .cache(cache)
            .store(new EtcdInventory(client))
            .drivers(drivers)
            .cluster(DisconnectedCluster.INSTANCE)
            .replicas(registry)
            .registry(new PrometheusRegistry())
            .clock(Clock.systemUTC())
            .build()
            .start();
  }

  /**
   * Cuts this replica off from etcd without a goodbye, as a SIGKILL or a partition would: its
   * client closes, so its lease is neither renewed nor revoked.
   */
  void cutOff() {
    cut = true;
    client.close();
  }

  @Override
  public void close() {
    if (controller != null) {
      controller.close();
    }
    registry.close();
    cache.close();
    drivers.close();
    if (!cut) {
      client.close();
    }
  }
}
