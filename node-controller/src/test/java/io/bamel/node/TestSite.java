package io.bamel.node;

import static org.awaitility.Awaitility.await;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.DisconnectedCluster;
import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeTimeouts;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.testing.EtcdCluster;
import io.bamel.inventory.testing.StoreEdits;
import io.bamel.kube.Fabric8Cluster;
import io.bamel.kube.testing.KubeApiServer;
import io.bamel.power.Backoff;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerDriverRegistry;
import io.bamel.power.PowerMetrics;
import io.bamel.power.Sleeper;
import io.bamel.power.credentials.CredentialSource;
import io.bamel.power.redfish.RedfishConfig;
import io.bamel.power.redfish.RedfishDriver;
import io.bamel.power.sim.SimOperation;
import io.bamel.power.sim.SimSystemConfig;
import io.bamel.power.sim.SimulatedBmcFleet;
import io.bamel.power.sim.SimulatedSystem;
import io.bamel.power.sim.SimulatorCredentials;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * A test site: real etcd, a simulated Redfish fleet, optionally the fabric8 mock API server with
 * fake kubelets, and any number of node controllers. Short timeouts so tests finish quickly.
 */
final class TestSite implements AutoCloseable {

  static final NodeTimeouts TIMEOUTS =
      NodeTimeouts.of(
          Duration.ofSeconds(3),
          Duration.ofSeconds(4),
          Duration.ofSeconds(3),
          Duration.ofSeconds(3));

  static final NodeControllerConfig CONFIG =
      NodeControllerConfig.DEFAULTS
          .withIntervals(Duration.ofSeconds(2), Duration.ofMillis(100))
          .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(1))
          .withBmcCallTimeout(Duration.ofSeconds(10))
          .withTimeouts(TIMEOUTS);

  static final SimSystemConfig MACHINE =
      SimSystemConfig.defaults().withPowerDelay(Duration.ofMillis(200));

  final EtcdCluster etcd;
  final Client client;
  final EtcdInventory inventory;
  final SimulatedBmcFleet fleet = SimulatedBmcFleet.start(false);
  final KubeApiServer api;
  final FakeKubelets kubelets;
  final KubernetesClient kube;
  private final List<AutoCloseable> closeables = new ArrayList<>();

  TestSite(EtcdCluster etcd, boolean kubernetes) {
    this.etcd = etcd;
    this.client = etcd.client();
    this.inventory = new EtcdInventory(client);
    this.api = kubernetes ? KubeApiServer.start() : null;
    this.kubelets = kubernetes ? new FakeKubelets(fleet, api) : null;
    this.kube = kubernetes ? api.client() : null;
  }

  /** Credentials for the simulated fleet, which speaks plain HTTP on loopback. */
  static final CredentialSource CREDENTIALS = SimulatorCredentials.PLAIN_HTTP;

  /** A driver registry with the Redfish driver (short graceful timeout), optionally wrapped. */
  static PowerDriverRegistry drivers(UnaryOperator<PowerDriver> wrap) {
    CredentialSource credentials = CREDENTIALS;
    RedfishDriver redfish =
        new RedfishDriver(
            credentials,
            RedfishConfig.defaults()
                .withGracefulTimeout(Duration.ofSeconds(2))
                .withPollInterval(Duration.ofMillis(50))
                .withBusyBackoff(new Backoff(Duration.ofMillis(20), Duration.ofMillis(200), 6)),
            Clock.systemUTC(),
            Sleeper.SYSTEM);
    return new PowerDriverRegistry(new PowerMetrics(new PrometheusRegistry()), Clock.systemUTC())
        .register(wrap.apply(redfish));
  }

  Cluster cluster() {
    return api == null ? DisconnectedCluster.INSTANCE : new Fabric8Cluster(api.client());
  }

  ControllerInstance controller(String name) throws InterruptedException {
    return controller(name, CONFIG, drivers(d -> d));
  }

  ControllerInstance controller(
      String name, NodeControllerConfig config, PowerDriverRegistry drivers)
      throws InterruptedException {
    return controller(name, config, drivers, Clock.systemUTC());
  }

  ControllerInstance controller(
      String name, NodeControllerConfig config, PowerDriverRegistry drivers, Clock clock)
      throws InterruptedException {
    return add(
        new ControllerInstance(etcd, name, false, config, drivers, cluster(), clock), drivers);
  }

  /**
   * A controller and the driver its Redfish driver is wrapped in (counting, failing or holding
   * calls), for the test to ask or steer.
   */
  record Wrapped<D extends PowerDriver>(ControllerInstance controller, D driver) {}

  /** A controller on {@code clock} whose Redfish driver {@code wrap} wraps. */
  <D extends PowerDriver> Wrapped<D> wrapped(
      String name, NodeControllerConfig config, Clock clock, Function<PowerDriver, D> wrap)
      throws InterruptedException {
    List<D> made = new ArrayList<>(1);
    ControllerInstance c = controller(name, config, drivers(wrappingInto(made, wrap)), clock);
    return new Wrapped<>(c, made.getFirst());
  }

  /** A controller whose Redfish driver is wrapped in a {@link CountingDriver}. */
  Wrapped<CountingDriver> counted(String name, NodeControllerConfig config)
      throws InterruptedException {
    return counted(name, config, Clock.systemUTC());
  }

  /** As above, on {@code clock}. */
  Wrapped<CountingDriver> counted(String name, NodeControllerConfig config, Clock clock)
      throws InterruptedException {
    return wrapped(name, config, clock, CountingDriver::new);
  }

  /** A sharded controller: replica {@code name} acts on its share of the ring, no election. */
  ControllerInstance replica(String name, NodeControllerConfig config, PowerDriverRegistry drivers)
      throws InterruptedException {
    return add(
        new ControllerInstance(etcd, name, true, config, drivers, cluster(), Clock.systemUTC()),
        drivers);
  }

  /** A replica ({@link #replica}) whose Redfish driver is wrapped in a {@link CountingDriver}. */
  Wrapped<CountingDriver> countedReplica(String name, NodeControllerConfig config)
      throws InterruptedException {
    List<CountingDriver> made = new ArrayList<>(1);
    ControllerInstance r = replica(name, config, drivers(wrappingInto(made, CountingDriver::new)));
    return new Wrapped<>(r, made.getFirst());
  }

  /** {@code wrap}, keeping the driver it made in {@code made}. */
  private static <D extends PowerDriver> UnaryOperator<PowerDriver> wrappingInto(
      List<D> made, Function<PowerDriver, D> wrap) {
    return d -> {
      D wrapper = wrap.apply(d);
      made.add(wrapper);
      return wrapper;
    };
  }

  private ControllerInstance add(ControllerInstance c, PowerDriverRegistry drivers) {
    closeables.add(c);
    closeables.add(drivers);
    return c;
  }

  /** Adds {@code count} machines (off) and their inventory records. */
  List<String> addNodes(int count, String pool, DesiredPower desired) {
    List<String> ids = new ArrayList<>();
    for (SimulatedSystem system : fleet.addSystems(count, "node-", MACHINE)) {
      String id = system.id();
      inventory.createNode(id, spec(id, pool, desired), null);
      ids.add(id);
    }
    return ids;
  }

  NodeSpec spec(String id, String pool, DesiredPower desired) {
    return NodeSpec.builder()
        .name(id)
        .pool(pool)
        .mgmtAddress(fleet.address(id))
        .powerInterface(PowerInterface.of("redfish"))
        .bmcCredentials("bmc")
        .desiredPower(desired)
        .build();
  }

  void desire(String id, DesiredPower desired) {
    StoreEdits.updateSpec(inventory, id, s -> s.toBuilder().desiredPower(desired).build(), null);
  }

  void update(String id, UnaryOperator<NodeSpec> change) {
    StoreEdits.updateSpec(inventory, id, change, null);
  }

  Node node(String id) {
    return inventory.getNode(id).orElseThrow();
  }

  NodeState state(String id) {
    return node(id).state();
  }

  List<NodeEvent> events(String id) {
    return inventory.events(id);
  }

  /** The BMC address of node {@code id} (the key of {@link CountingDriver}'s counts). */
  String address(String id) {
    return fleet.address(id);
  }

  long resets(String id, String type) {
    return fleet.system(id).resets(type);
  }

  long accepted(String id) {
    return fleet.system(id).count(SimOperation.RESET);
  }

  void awaitState(List<String> ids, NodeState state, Duration timeout) {
    awaitState(ids, state, timeout, Duration.ofMillis(100));
  }

  /** As above, looking every {@code poll}: short for a state that may last only a backoff. */
  void awaitState(List<String> ids, NodeState state, Duration timeout, Duration poll) {
    await()
        .atMost(timeout)
        .pollInterval(poll)
        .untilAsserted(
            () -> {
              List<String> others = new ArrayList<>();
              for (String id : ids) {
                NodeState s = state(id);
                if (s != state) {
                  others.add(id + "=" + s);
                }
              }
              org.assertj.core.api.Assertions.assertThat(others).as("nodes not " + state).isEmpty();
            });
  }

  @Override
  public void close() {
    for (AutoCloseable c : closeables.reversed()) {
      try {
        c.close();
      } catch (Exception e) {
        // keep closing
      }
    }
    if (kubelets != null) {
      kubelets.close();
      kube.close();
      api.close();
    }
    fleet.close();
  }
}
