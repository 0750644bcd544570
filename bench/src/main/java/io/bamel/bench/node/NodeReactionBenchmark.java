package io.bamel.bench.node;

import io.bamel.bench.BenchContext;
import io.bamel.bench.BenchResult;
import io.bamel.bench.Benchmark;
import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.ObservedPower;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.store.Keys;
import io.bamel.inventory.testing.EtcdCluster;
import io.bamel.node.NodeControllerConfig;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.options.WatchOption;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * With 10,000 nodes in the inventory, the time from a desired-state write (one etcd put of the
 * spec) to the driver's power-on call, p50 and p99 over 1,000 nodes, one at a time, against the raw
 * etcd watch latency (put to watch event on the same prefix) measured in the same run. Target: p99
 * at most 2 x the raw p99 + 20 ms. The driver is in memory, so this measures the controller: watch,
 * cache, queue, reads, the write-ahead transaction.
 */
public final class NodeReactionBenchmark implements Benchmark {

  private static final int WARM_UP = 50;

  private static CompletableFuture<Long> arrival(
      Map<String, CompletableFuture<Long>> map, String key) {
    return map.computeIfAbsent(key, k -> new CompletableFuture<>());
  }

  @Override
  public String name() {
    return "node-reaction";
  }

  @Override
  public List<BenchResult> run(BenchContext context) throws Exception {
    int inventory = context.size("nodeInventory", 10_000);
    int samples = Math.min(inventory, context.size("nodeSamples", 1_000));
    try (EtcdCluster etcd = EtcdCluster.start(1);
        Client client = etcd.client()) {
      load(client, inventory);
      double[] raw = rawWatchLatency(client, samples);
      double[] bamel = controllerLatency(client, inventory, samples);
      double rawP50 = percentile(raw, 50);
      double rawP99 = percentile(raw, 99);
      double p50 = percentile(bamel, 50);
      double p99 = percentile(bamel, 99);
      double limit = 2 * rawP99 + 20;
      return List.of(
          new BenchResult(
              name(),
              String.format(
                  Locale.ROOT,
                  "p50 write->driver, %,d of %,d nodes (vs watch p50)",
                  samples,
                  inventory),
              p50,
              rawP50,
              "ms",
              p50 / rawP50,
              "info",
              true),
          new BenchResult(
              name(),
              String.format(
                  Locale.ROOT,
                  "p99 write->driver, %,d of %,d nodes (vs watch p99)",
                  samples,
                  inventory),
              p99,
              rawP99,
              "ms",
              p99 / limit,
              "p99 <= 2 x raw p99 + 20 ms",
              p99 <= limit));
    }
  }

  static String id(int i) {
    return String.format(Locale.ROOT, "n%05d", i);
  }

  static NodeSpec spec(int i, DesiredPower desired) {
    return NodeSpec.builder()
        .name(id(i))
        .pool("pool-" + (i % 20))
        .mgmtAddress("https://10.1." + (i >> 8 & 255) + "." + (i & 255))
        .powerInterface(PowerInterface.of("redfish"))
        .bmcCredentials("bmc")
        .desiredPower(desired)
        .build();
  }

  private static void load(Client client, int count) throws Exception {
    NodeStatus off =
        NodeStatus.builder()
            .state(NodeState.OFF)
            .stateSince(Instant.parse("2026-01-01T00:00:00Z"))
            .observedPower(ObservedPower.OFF)
            .bmcReachable(true)
            .build();
    List<Op> ops = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ops.add(put(Keys.nodeSpec(id(i)), Codec.encode(spec(i, DesiredPower.OFF))));
      ops.add(put(Keys.nodeStatus(id(i)), Codec.encode(off)));
      if (ops.size() >= 120 || i == count - 1) {
        client.getKVClient().txn().Then(ops.toArray(Op[]::new)).commit().get(30, TimeUnit.SECONDS);
        ops.clear();
      }
    }
  }

  private static Op put(String key, byte[] value) {
    return Op.put(
        ByteSequence.from(key, StandardCharsets.UTF_8),
        ByteSequence.from(value),
        PutOption.DEFAULT);
  }

  /** Put a key, wait for its watch event: the floor any watcher of etcd has. */
  private static double[] rawWatchLatency(Client client, int samples) throws Exception {
    String prefix = "/bench/watch/";
    Map<String, CompletableFuture<Long>> seen = new ConcurrentHashMap<>();
    double[] millis = new double[samples];
    Watch.Watcher watcher =
        client
            .getWatchClient()
            .watch(
                ByteSequence.from(prefix, StandardCharsets.UTF_8),
                WatchOption.builder().isPrefix(true).build(),
                response ->
                    response
                        .getEvents()
                        .forEach(
                            e ->
                                arrival(
                                        seen,
                                        e.getKeyValue().getKey().toString(StandardCharsets.UTF_8))
                                    .complete(System.nanoTime())));
    try {
      Thread.sleep(200);
      for (int i = -WARM_UP; i < samples; i++) {
        String key = prefix + i;
        long start = System.nanoTime();
        client
            .getKVClient()
            .put(
                ByteSequence.from(key, StandardCharsets.UTF_8),
                ByteSequence.from(Codec.encode(spec(Math.abs(i), DesiredPower.ON))))
            .get(10, TimeUnit.SECONDS);
        long at = arrival(seen, key).get(10, TimeUnit.SECONDS);
        if (i >= 0) {
          millis[i] = (at - start) / 1e6;
        }
      }
    } finally {
      watcher.close();
    }
    return millis;
  }

  private static double[] controllerLatency(Client client, int inventory, int samples)
      throws Exception {
    InstantDriver driver = new InstantDriver();
    double[] millis = new double[samples];
    PrometheusRegistry registry = new PrometheusRegistry();
    try (LeadingNodeController leader =
        new LeadingNodeController(
            client,
            NodeControllerConfig.DEFAULTS.withIntervals(Duration.ofHours(1), Duration.ofSeconds(5)),
            new EtcdInventory(client),
            driver,
            registry)) {
      leader.start();
      awaitStartUpPass(leader.cache, registry, inventory);
      int step = Math.max(1, (inventory - WARM_UP) / samples);
      for (int s = -WARM_UP; s < samples; s++) {
        int i = s < 0 ? inventory + s : s * step; // warm-up on the last nodes, untimed
        String address = spec(i, DesiredPower.ON).mgmtAddress();
        long start = System.nanoTime();
        client
            .getKVClient()
            .put(
                ByteSequence.from(Keys.nodeSpec(id(i)), StandardCharsets.UTF_8),
                ByteSequence.from(Codec.encode(spec(i, DesiredPower.ON))))
            .get(10, TimeUnit.SECONDS);
        long at = driver.powerOnAt(address).get(30, TimeUnit.SECONDS);
        if (s >= 0) {
          millis[s] = (at - start) / 1e6;
        }
      }
    }
    return millis;
  }

  /**
   * Waits until the controller's start-up pass over every node is over: every node was reconciled
   * ({@code bamel_reconcile_total} reached the inventory's size), its work queue is empty, and the
   * inventory's revision has not moved for a second (the pass records each node's observed spec
   * revision, 10,000 writes, which take far longer than the timed reactions on a slow disk; timing
   * a reaction queued behind them would time out).
   */
  private static void awaitStartUpPass(
      InventoryCache cache, PrometheusRegistry registry, int inventory)
      throws InterruptedException {
    long start = System.nanoTime();
    long deadline = start + TimeUnit.MINUTES.toNanos(10);
    long revision = -1;
    long stableSince = System.nanoTime();
    while (System.nanoTime() < deadline) {
      Progress p = progress(registry);
      if (cache.revision() != revision || p.queued() > 0 || p.reconciled() < inventory) {
        revision = cache.revision();
        stableSince = System.nanoTime();
      } else if (System.nanoTime() - stableSince > TimeUnit.SECONDS.toNanos(1)) {
        System.out.printf(
            Locale.ROOT,
            "node-reaction: start-up pass over the inventory took %.1f s (%,.0f reconciliations)%n",
            (stableSince - start) / 1e9,
            p.reconciled());
        return;
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException("the controller's start-up pass did not end in 10 minutes");
  }

  /** The start-up pass's progress: ids waiting in the work queue, reconciliations so far. */
  private record Progress(double queued, double reconciled) {}

  /**
   * Scrapes only the two metrics the wait needs ({@code bamel_nodes}, for one, would count the
   * whole inventory at every poll). A counter's name, as the filter sees it, has no {@code _total}.
   */
  private static Progress progress(PrometheusRegistry registry) {
    double queued = 0;
    double reconciled = 0;
    boolean counted = false;
    for (MetricSnapshot metric :
        registry.scrape(n -> n.equals("bamel_workqueue_depth") || n.equals("bamel_reconcile"))) {
      if (metric instanceof GaugeSnapshot gauge) {
        for (GaugeSnapshot.GaugeDataPointSnapshot point : gauge.getDataPoints()) {
          queued += point.getValue();
        }
      } else if (metric instanceof CounterSnapshot counter) {
        counted = true;
        for (CounterSnapshot.CounterDataPointSnapshot point : counter.getDataPoints()) {
          reconciled += point.getValue();
        }
      }
    }
    if (!counted) {
      throw new IllegalStateException("bamel_reconcile_total is not in the controller's registry");
    }
    return new Progress(queued, reconciled);
  }

  static double percentile(double[] values, int p) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }
}
