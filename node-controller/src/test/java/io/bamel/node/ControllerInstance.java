package io.bamel.node;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.leader.LeaderElection;
import io.bamel.inventory.sharding.ReplicaRegistry;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.testing.EtcdCluster;
import io.bamel.power.PowerDriverRegistry;
import io.etcd.jetcd.Client;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.time.Clock;
import java.time.Duration;

/**
 * One bamel process's node controller: its own etcd client, cache, metrics registry, and election
 * (leader mode) or replica registry (sharded mode).
 */
final class ControllerInstance implements AutoCloseable {

  static final LeaderElection.Options ELECTION =
      new LeaderElection.Options(
          Duration.ofSeconds(2), Duration.ofMillis(300), Duration.ofSeconds(2));

  /** A 2 s lease, checked every 300 ms (as the registry's own tests). */
  static final ReplicaRegistry.Options REPLICAS =
      new ReplicaRegistry.Options(
          Duration.ofSeconds(2), Duration.ofMillis(300), Duration.ofSeconds(2));

  final String name;
  final Client client;
  final InventoryCache cache;
  final LeaderElection election;
  final ReplicaRegistry replicas;
  final NodeController controller;
  final PrometheusRegistry registry = new PrometheusRegistry();

  /**
   * A controller in leader mode ({@code sharded} false: it campaigns in the election) or sharded
   * mode (it registers as replica {@code name} and acts on its share of the ring).
   */
  ControllerInstance(
      EtcdCluster etcd,
      String name,
      boolean sharded,
      NodeControllerConfig config,
      PowerDriverRegistry drivers,
      Cluster cluster,
      Clock clock)
      throws InterruptedException {
    this.name = name;
    client = etcd.client();
    cache = new InventoryCache(client).start();
    if (!cache.awaitSynced(Duration.ofSeconds(10))) {
      throw new IllegalStateException("cache did not sync");
    }
    election =
        sharded ? null : new LeaderElection(client, NodeController.COMPONENT, name, ELECTION);
    replicas = sharded ? new ReplicaRegistry(client, name, REPLICAS).start() : null;
    NodeController.Builder builder =
        NodeController.builder()
            .config(config)
            .cache(cache)
            .store(new EtcdInventory(client))
            .drivers(drivers)
            .cluster(cluster)
            .registry(registry)
            .clock(clock);
    controller = (sharded ? builder.replicas(replicas) : builder.election(election)).build();
    controller.start();
    if (election != null) {
      election.start();
    }
  }

  /**
   * The process dies: its workers are interrupted at once (no shutdown wait), no resignation, no
   * more lease keep-alives.
   */
  void crash() {
    controller.close(Duration.ZERO);
    client.close();
    closeOwnership();
    cache.close();
  }

  private void closeOwnership() {
    if (election != null) {
      election.close();
    }
    if (replicas != null) {
      replicas.close();
    }
  }

  /** A metric's value (counters and gauges), 0 when absent; labels as name, value pairs. */
  double metric(String name, String... labels) {
    String base = name.endsWith("_total") ? name.substring(0, name.length() - 6) : name;
    double sum = 0;
    for (MetricSnapshot s : registry.scrape()) {
      String n = s.getMetadata().getName();
      if (!n.equals(name) && !n.equals(base)) {
        continue;
      }
      for (DataPointSnapshot dp : s.getDataPoints()) {
        boolean match = true;
        for (int i = 0; i < labels.length; i += 2) {
          match &= labels[i + 1].equals(dp.getLabels().get(labels[i]));
        }
        if (!match) {
          continue;
        }
        if (dp instanceof CounterSnapshot.CounterDataPointSnapshot c) {
          sum += c.getValue();
        } else if (dp instanceof GaugeSnapshot.GaugeDataPointSnapshot g) {
          sum += g.getValue();
        }
      }
    }
    return sum;
  }

  /** A histogram's observation count and sum, {0, 0} when absent. */
  double[] histogram(String name) {
    for (MetricSnapshot s : registry.scrape(n -> n.equals(name))) {
      for (DataPointSnapshot dp : s.getDataPoints()) {
        if (dp instanceof HistogramSnapshot.HistogramDataPointSnapshot h) {
          return new double[] {h.getCount(), h.getSum()};
        }
      }
    }
    return new double[] {0, 0};
  }

  @Override
  public void close() {
    controller.close();
    closeOwnership();
    cache.close();
  }
}
