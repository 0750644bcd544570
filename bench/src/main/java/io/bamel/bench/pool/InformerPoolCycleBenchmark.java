package io.bamel.bench.pool;

import io.bamel.bench.BenchContext;
import io.bamel.bench.BenchResult;
import io.bamel.bench.Benchmark;
import io.bamel.bench.Timer;
import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.model.PoolStatus;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.testing.EtcdCluster;
import io.bamel.kube.Fabric8Cluster;
import io.bamel.kube.testing.KubeApiServer;
import io.bamel.kube.testing.KubeObjects;
import io.bamel.pool.PoolController;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The pool cycle reading through {@code Fabric8Cluster}'s informers, as the server does: 100 pools
 * x 100 nodes in etcd (as in {@link PoolCycleBenchmark}), the 6,000 ready nodes and 50,000 running
 * pods (about 8 per ready node, utilization about 0.4: nothing to do) in the fabric8 mock API
 * server, listed by the informers over HTTP into their stores. Rows:
 *
 * <ul>
 *   <li>the steady cycle (median): target at most 50 ms, baseline a raw paged range of the nodes'
 *       keys from etcd in the same run;
 *   <li>the same cycles' median CPU time and bytes allocated on the deciding thread, which do not
 *       depend on the machine's load (information);
 *   <li>the informers' first list and sync of the 50,000 pods (information);
 *   <li>with the loop started (interval 10 min, so only wake-ups run cycles), 100 pending pods, one
 *       per pool, created one after the other through the API server: the time from each creation
 *       to its pool's power-on decision showing in the inventory cache (so after the etcd write),
 *       p50 and p99; target p99 at most 1 s.
 * </ul>
 */
public final class InformerPoolCycleBenchmark implements Benchmark {

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  @Override
  public String name() {
    return "pool-cycle-informer";
  }

  @Override
  public List<BenchResult> run(BenchContext context) throws Exception {
    PoolGrid grid = PoolGrid.of(context);
    int podCount = context.size("informerPods", 50_000);
    List<BenchResult> rows = new ArrayList<>();
    java.util.logging.Logger.getLogger("io.fabric8.mockwebserver")
        .setLevel(java.util.logging.Level.WARNING);
    try (EtcdCluster etcd = EtcdCluster.start(1);
        Client client = etcd.client();
        KubeApiServer api = KubeApiServer.start();
        KubernetesClient kube = api.client()) {
      List<KubeNode> kubeNodes = new ArrayList<>();
      PoolCycleBenchmark.load(client, grid, kubeNodes, new ArrayList<>());
      List<Pod> pods = new ArrayList<>(podCount);
      for (int i = 0; i < podCount; i++) {
        pods.add(running("w-" + i, kubeNodes.get(i % kubeNodes.size()).name()));
      }
      api.preload(kubeNodes.stream().map(n -> node(n.name())).toList(), pods);
      pods = null;

      long t0 = System.nanoTime();
      try (Fabric8Cluster cluster = new Fabric8Cluster(api.client())) {
        while (!cluster.synced()) {
          if (System.nanoTime() - t0 > Duration.ofMinutes(2).toNanos()) {
            throw new IllegalStateException("the informers did not sync");
          }
          Thread.sleep(5);
        }
        double syncMs = (System.nanoTime() - t0) / 1e6;
        if (cluster.pods().size() != podCount) {
          throw new IllegalStateException("informer holds " + cluster.pods().size() + " pods");
        }
        try (WarmPoolController warm =
            new WarmPoolController(client, cluster, b -> b.interval(Duration.ofMinutes(10)))) {
          EtcdInventory store = warm.store;
          InventoryCache cache = warm.cache;
          PoolController controller = warm.controller;
          int runs = context.quick() ? 3 : 21;
          double[] cpu = new double[runs];
          double[] allocated = new double[runs];
          int[] run = {0};
          double cycle =
              Timer.medianMillis(
                  runs,
                  () -> {
                    long cpu0 = THREADS.getCurrentThreadCpuTime();
                    long bytes0 = THREADS.getCurrentThreadAllocatedBytes();
                    var outcomes = controller.runCycle();
                    int i = run[0]++ % runs;
                    cpu[i] = (THREADS.getCurrentThreadCpuTime() - cpu0) / 1e6;
                    allocated[i] = (THREADS.getCurrentThreadAllocatedBytes() - bytes0) / 1e6;
                    grid.requireSteady(outcomes);
                  });
          Arrays.sort(cpu);
          Arrays.sort(allocated);
          double raw = CycleRows.rawRead(client, runs);
          rows.add(
              CycleRows.cycle(
                  name(),
                  String.format(
                      "cycle, %d pools x %d nodes, %,d pods in the informers vs raw read",
                      grid.pools(), grid.perPool(), podCount),
                  cycle,
                  raw));
          rows.add(
              CycleRows.information(
                  name(),
                  "same cycle, CPU time of the deciding thread (information)",
                  cpu[runs / 2],
                  raw,
                  "ms"));
          rows.add(
              CycleRows.information(
                  name(),
                  "same cycle, bytes allocated by the deciding thread (information)",
                  allocated[runs / 2],
                  raw,
                  "MB"));
          rows.add(
              CycleRows.information(
                  name(),
                  String.format(
                      "informers' first list and sync of %,d pods (information)", podCount),
                  syncMs,
                  raw,
                  "ms"));

          controller.start();
          int pending = Math.min(grid.pools(), 100);
          double[] latencies = new double[pending];
          for (int p = 0; p < pending; p++) {
            String pool = "pool-" + p;
            long created = System.nanoTime();
            kube.pods().resource(pendingPod("want-" + p, pool)).create();
            long deadline = created + Duration.ofSeconds(30).toNanos();
            while (!poweringOn(cache.pool(pool).map(x -> x.status()).orElse(null))) {
              if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no decision for " + pool);
              }
              Thread.sleep(1);
            }
            latencies[p] = (System.nanoTime() - created) / 1e6;
          }
          double p50 = Timer.percentile(latencies, 0.50);
          double p99 = Timer.percentile(latencies, 0.99);
          rows.add(
              new BenchResult(
                  name(),
                  String.format(
                      "pending pod created -> power-on decision in etcd, p99 over %d pods (p50 %.0f"
                          + " ms, max %.0f ms)",
                      pending, p50, Timer.percentile(latencies, 1.0)),
                  p99,
                  1000,
                  "ms",
                  p99 / 1000,
                  "p99 <= 1000 ms",
                  p99 <= 1000));
        }
      }
    }
    return rows;
  }

  private static boolean poweringOn(PoolStatus s) {
    return s != null
        && s.scalingNodes() != null
        && s.scalingNodes().stream().anyMatch(n -> "power-on".equals(n.action()));
  }

  private static Node node(String name) {
    return KubeObjects.node(name).allocatable("cpu", "64", "memory", "512Gi").build();
  }

  private static Pod running(String name, String node) {
    return KubeObjects.pod(name)
        .owner("ReplicaSet", "w", "u")
        .onNode(node)
        .container("c", "app")
        .requests("cpu", "3", "memory", "24Gi")
        .scheduled()
        .build();
  }

  private static Pod pendingPod(String name, String pool) {
    return KubeObjects.pod(name)
        .owner("ReplicaSet", "p", "p")
        .pool(pool)
        .container("c", "app")
        .requests("cpu", "8")
        .pending()
        .build();
  }
}
