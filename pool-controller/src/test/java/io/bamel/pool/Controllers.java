package io.bamel.pool;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.leader.LeaderElection;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryCache;
import io.etcd.jetcd.Client;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * One bamel process as the pool controller sees it, for integration tests: its own etcd client,
 * store, cache, leader election (10 s TTL), metrics registry and pool controller.
 */
final class Controllers implements AutoCloseable {

  final Client client;
  final EtcdInventory store;
  final InventoryCache cache;
  final LeaderElection election;
  final PrometheusRegistry registry = new PrometheusRegistry();
  final PoolController controller;

  Controllers(
      Client client,
      String identity,
      Cluster cluster,
      Clock clock,
      Consumer<PoolController.Builder> more) {
    this.client = client;
    this.store = new EtcdInventory(client);
    this.cache = new InventoryCache(client).start();
    this.election =
        new LeaderElection(
                client,
                "pool-controller",
                identity,
                LeaderElection.Options.withTtl(Duration.ofSeconds(10)))
            .start();
    PoolController.Builder b =
        PoolController.builder()
            .store(store)
            .cache(cache)
            .cluster(cluster)
            .election(election)
            .registry(registry)
            .clock(clock)
            .canPowerOff(n -> true);
    more.accept(b);
    this.controller = b.build();
  }

  /** Waits until the cache has seen every write so far. */
  void sync() throws InterruptedException {
    if (!cache.awaitRevision(store.currentRevision(), Duration.ofSeconds(10))) {
      throw new AssertionError("the cache did not catch up");
    }
  }

  /** The value of a gauge or counter data point with these label values (NaN: absent). */
  double metric(String name, String... labelValues) {
    for (MetricSnapshot s : registry.scrape()) {
      if (!s.getMetadata().getName().equals(name.replaceAll("_total$", ""))) {
        continue;
      }
      for (DataPointSnapshot p : s.getDataPoints()) {
        boolean match = true;
        for (int i = 0; i < labelValues.length; i += 2) {
          match &= labelValues[i + 1].equals(p.getLabels().get(labelValues[i]));
        }
        if (match) {
          if (p instanceof GaugeSnapshot.GaugeDataPointSnapshot g) {
            return g.getValue();
          }
          if (p instanceof CounterSnapshot.CounterDataPointSnapshot c) {
            return c.getValue();
          }
        }
      }
    }
    return Double.NaN;
  }

  /** How many observations a histogram holds over all its label values (0: absent). */
  long histogramCount(String name) {
    long count = 0;
    for (MetricSnapshot s : registry.scrape()) {
      if (s.getMetadata().getName().equals(name) && s instanceof HistogramSnapshot h) {
        for (HistogramSnapshot.HistogramDataPointSnapshot p : h.getDataPoints()) {
          count += p.getCount();
        }
      }
    }
    return count;
  }

  @Override
  public void close() {
    controller.close();
    election.close();
    cache.close();
  }
}
