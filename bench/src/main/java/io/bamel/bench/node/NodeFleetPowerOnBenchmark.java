package io.bamel.bench.node;

import io.bamel.bench.BenchContext;
import io.bamel.bench.BenchResult;
import io.bamel.bench.Benchmark;
import io.bamel.inventory.cluster.DisconnectedCluster;
import io.bamel.inventory.leader.LeaderElection;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.inventory.model.PowerState;
import io.bamel.inventory.store.BatchItem;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.testing.EtcdCluster;
import io.bamel.node.NodeController;
import io.bamel.node.NodeControllerConfig;
import io.bamel.power.BmcEndpoint;
import io.bamel.power.Deadline;
import io.bamel.power.PowerDriverRegistry;
import io.bamel.power.PowerMetrics;
import io.bamel.power.Sleeper;
import io.bamel.power.credentials.CredentialSource;
import io.bamel.power.credentials.Credentials;
import io.bamel.power.redfish.RedfishConfig;
import io.bamel.power.redfish.RedfishDriver;
import io.bamel.power.sim.SimSystemConfig;
import io.bamel.power.sim.SimulatedBmcFleet;
import io.bamel.power.sim.SimulatedSystem;
import io.etcd.jetcd.Client;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * 1,000 nodes switched on at once against simulated Redfish BMCs that answer every request after
 * 200 ms, with a limit of 64 concurrent BMC calls: the time until every node is {@code ready} (no
 * Kubernetes) against the ideal set by that limit, which is measured in the same run as a bare
 * client doing only what is necessary with the same driver at the same concurrency (read the state,
 * switch on, poll until on at the controller's poll interval, holding a call slot only during a
 * call). Target: at most 1.3.
 */
public final class NodeFleetPowerOnBenchmark implements Benchmark {

  private static final Duration LATENCY = Duration.ofMillis(200);
  private static final Duration POLL = Duration.ofMillis(500);
  private static final int CONCURRENCY = 64;
  private static final SimSystemConfig MACHINE =
      SimSystemConfig.defaults().withPowerDelay(Duration.ofMillis(300));

  @Override
  public String name() {
    return "node-fleet-power-on";
  }

  @Override
  public List<BenchResult> run(BenchContext context) throws Exception {
    int nodes = context.size("fleetNodes", 1_000);
    double ideal;
    try (SimulatedBmcFleet fleet = fleet(nodes)) {
      ideal = bareClient(fleet);
    }
    double bamel;
    try (SimulatedBmcFleet fleet = fleet(nodes)) {
      bamel = controller(fleet, nodes);
    }
    return List.of(
        BenchResult.ratioAtMost(
            name(),
            String.format(
                Locale.ROOT,
                "%,d nodes on, BMCs %d ms, %d BMC calls at once (vs bare client)",
                nodes,
                LATENCY.toMillis(),
                CONCURRENCY),
            bamel,
            ideal,
            "ms",
            1.3));
  }

  private static SimulatedBmcFleet fleet(int nodes) {
    SimulatedBmcFleet fleet = SimulatedBmcFleet.start(false);
    for (SimulatedSystem s : fleet.addSystems(nodes, "node-", MACHINE)) {
      s.faults().latency(LATENCY);
    }
    return fleet;
  }

  private static RedfishDriver driver() {
    CredentialSource credentials = name -> Credentials.of("admin", "password");
    return new RedfishDriver(
        credentials,
        RedfishConfig.defaults().withPollInterval(Duration.ofMillis(100)),
        Clock.systemUTC(),
        Sleeper.SYSTEM);
  }

  /**
   * The ideal: per node, read, switch on, poll until on; at most 64 BMC calls at once (a node that
   * waits between polls holds no slot, as in the controller).
   */
  private static double bareClient(SimulatedBmcFleet fleet) throws Exception {
    Semaphore slots = new Semaphore(CONCURRENCY, true);
    try (RedfishDriver driver = driver();
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      // sessions opened untimed, as the controller's first pass does
      List<Future<?>> warm = new ArrayList<>();
      for (SimulatedSystem s : fleet.systems()) {
        BmcEndpoint endpoint = BmcEndpoint.of(fleet.address(s.id()), "bmc");
        warm.add(pool.submit(() -> limited(slots, () -> driver.powerState(endpoint, deadline()))));
      }
      for (Future<?> f : warm) {
        f.get();
      }
      long start = System.nanoTime();
      List<Future<?>> done = new ArrayList<>();
      for (SimulatedSystem s : fleet.systems()) {
        BmcEndpoint endpoint = BmcEndpoint.of(fleet.address(s.id()), "bmc");
        done.add(
            pool.submit(
                () -> {
                  limited(slots, () -> driver.powerState(endpoint, deadline()));
                  limited(
                      slots,
                      () -> {
                        driver.powerOn(endpoint, deadline());
                        return null;
                      });
                  while (limited(slots, () -> driver.powerState(endpoint, deadline()))
                      != io.bamel.power.PowerState.ON) {
                    Thread.sleep(POLL.toMillis());
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      return (System.nanoTime() - start) / 1e6;
    }
  }

  private static Deadline deadline() {
    return Deadline.in(Duration.ofMinutes(5));
  }

  private static <T> T limited(Semaphore slots, Callable<T> call) throws Exception {
    slots.acquire();
    try {
      return call.call();
    } finally {
      slots.release();
    }
  }

  private static double controller(SimulatedBmcFleet fleet, int nodes) throws Exception {
    try (EtcdCluster etcd = EtcdCluster.start(1);
        Client client = etcd.client();
        RedfishDriver driver = driver()) {
      EtcdInventory inventory = new EtcdInventory(client);
      List<String> ids = fleet.systems().stream().map(SimulatedSystem::id).sorted().toList();
      List<BatchItem> off = new ArrayList<>();
      for (String id : ids) {
        off.add(BatchItem.upsert(id, spec(fleet, id, PowerState.OFF), null));
      }
      inventory.upsertAll(off);
      PowerDriverRegistry drivers =
          new PowerDriverRegistry(new PowerMetrics(new PrometheusRegistry()), Clock.systemUTC())
              .register(driver);
      try (InventoryCache cache = new InventoryCache(client).start();
          LeaderElection election =
              new LeaderElection(
                  client, NodeController.COMPONENT, "bench", LeaderElection.Options.DEFAULTS);
          NodeController controller =
              new NodeController(
                  NodeControllerConfig.DEFAULTS
                      .withConcurrency(CONCURRENCY, CONCURRENCY)
                      .withIntervals(Duration.ofHours(1), POLL),
                  cache,
                  inventory,
                  drivers,
                  DisconnectedCluster.INSTANCE,
                  election,
                  new PrometheusRegistry(),
                  Clock.systemUTC())) {
        cache.awaitSynced(Duration.ofMinutes(1));
        controller.start();
        election.start();
        election.awaitLeadership(Duration.ofSeconds(30));
        // the first pass records every node as off (sessions are opened here, untimed)
        waitFor(cache, ids, NodeState.OFF, Duration.ofMinutes(5));
        List<BatchItem> on = new ArrayList<>();
        for (String id : ids) {
          on.add(BatchItem.upsert(id, spec(fleet, id, PowerState.ON), null));
        }
        long start = System.nanoTime();
        inventory.upsertAll(on);
        waitFor(cache, ids, NodeState.READY, Duration.ofMinutes(10));
        return (System.nanoTime() - start) / 1e6;
      }
    }
  }

  private static NodeSpec spec(SimulatedBmcFleet fleet, String id, PowerState desired) {
    return NodeSpec.builder()
        .name(id)
        .pool("bench")
        .mgmtAddress(fleet.address(id))
        .powerInterface(PowerInterface.REDFISH)
        .bmcCredentials("bmc")
        .powerState(desired)
        .build();
  }

  private static void waitFor(
      InventoryCache cache, List<String> ids, NodeState state, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      long missing =
          ids.stream()
              .filter(id -> cache.node(id).map(n -> n.state() != state).orElse(true))
              .count();
      if (missing == 0) {
        return;
      }
      Thread.sleep(20);
    }
    throw new IllegalStateException("nodes did not all reach " + state + " within " + timeout);
  }
}
