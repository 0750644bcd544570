package io.bamel.pool;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.github.tomakehurst.wiremock.WireMockServer;
import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.ObservedPower;
import io.bamel.inventory.model.PoolCondition;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PoolStatus;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.inventory.model.ResourceCapacity;
import io.bamel.inventory.model.ScaleDirection;
import io.bamel.inventory.model.ScalingNode;
import io.bamel.inventory.model.ScalingTrigger;
import io.bamel.inventory.testing.StoreEdits;
import io.bamel.pool.ScalingDecision.Direction;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The pool controller against real etcd, the fabric8 mock API server in CRUD mode, and WireMock as
 * Prometheus; time is a fake clock, cycles are run by hand.
 */
class PoolControllerIT extends PoolSiteTests {

  private Controllers controllers(String identity) throws InterruptedException {
    return controllers(identity, b -> {});
  }

  private Controllers controllers(
      String identity, java.util.function.Consumer<PoolController.Builder> more)
      throws InterruptedException {
    Controllers c = new Controllers(client, identity, cluster, clock, more);
    assertThat(c.cache.awaitSynced(Duration.ofSeconds(10))).isTrue();
    awaitInformersHoldTheApiServersObjects();
    return c;
  }

  /**
   * The cluster reads through its informers: waits until they hold what the API server holds (a pod
   * created just before the informers started may otherwise be missing from the first cycle).
   */
  private void awaitInformersHoldTheApiServersObjects() {
    boolean apiUp;
    try {
      kube.nodes().list();
      apiUp = true;
    } catch (RuntimeException e) {
      apiUp = false; // a test of an unreachable API server
    }
    if (!apiUp) {
      return;
    }
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .ignoreExceptions()
        .until(
            () ->
                cluster.pods().size() == kube.pods().inAnyNamespace().list().getItems().size()
                    && cluster.nodes().size() == kube.nodes().list().getItems().size());
  }

  /** Captures what the pool controller logs (detached after the test). */
  private ListAppender<ILoggingEvent> captureLog() {
    Logger logger = (Logger) LoggerFactory.getLogger(PoolController.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    detach.add(() -> logger.detachAppender(appender));
    return appender;
  }

  private static List<String> warnings(ListAppender<ILoggingEvent> logged) {
    return logged.list.stream()
        .filter(e -> e.getLevel() == Level.WARN)
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  /** A node of {@code pool} with desired and observed state, 32 cores or as given. */
  private void node(
      String id, String pool, NodeState state, ResourceCapacity resources, String rack) {
    DesiredPower power = state == NodeState.OFF ? DesiredPower.OFF : DesiredPower.ON;
    NodeSpec spec =
        NodeSpec.builder()
            .pool(pool)
            .rack(rack)
            .powerInterface(PowerInterface.of("redfish"))
            .mgmtAddress("https://" + id + ".bmc.test") // unique: the store indexes it
            .bmcCredentials("bmc")
            .resources(resources)
            .desiredPower(power)
            .idlePowerWatts(120.0)
            .build();
    store.createNode(id, spec, null);
    store.putStatus(
        id,
        0,
        NodeStatus.builder()
            .state(state)
            .stateSince(T0.minusSeconds(3600))
            .observedPower(power == DesiredPower.ON ? ObservedPower.ON : ObservedPower.OFF)
            .build(),
        null,
        null);
  }

  private static ResourceCapacity cpu(String cores, String gpus) {
    return ResourceCapacity.of(cores, "128Gi", gpus);
  }

  private DesiredPower desired(String id) {
    return store.getNode(id).orElseThrow().spec().desiredPower();
  }

  private PoolStatus status(String pool) {
    return store.getPool(pool).orElseThrow().status();
  }

  private static PoolCondition condition(PoolStatus s, String type) {
    return s.conditions().stream().filter(c -> c.type().equals(type)).findFirst().orElseThrow();
  }

  @Test
  void pendingPodsSwitchOnTheNodesThatHoldThemInOneTransaction() throws Exception {
    store.putPoolConfig("gpu", PoolConfig.builder().build(), 0);
    node("g1", "gpu", NodeState.READY, cpu("32", "2"), "r1");
    node("g2", "gpu", NodeState.OFF, cpu("32", "4"), "r1");
    node("g3", "gpu", NodeState.OFF, cpu("64", null), "r2");
    node("g4", "gpu", NodeState.OFF, cpu("32", "2"), "r2");
    kube.nodes()
        .resource(KubeMock.node("g1", true, "cpu", 32, "memory", "128Gi", "nvidia.com/gpu", 2))
        .create();
    kube.pods().resource(KubeMock.running("busy", "g1", "cpu", 16, "nvidia.com/gpu", 2)).create();
    for (String p : List.of("train-1", "train-2", "train-3")) {
      kube.pods().resource(KubeMock.pending(p, "gpu", "cpu", 4, "nvidia.com/gpu", 2)).create();
    }
    kube.pods().resource(KubeMock.pending("elsewhere", "cpu", "cpu", 1)).create();

    try (Controllers a = controllers("a")) {
      assertThat(a.election.awaitLeadership(Duration.ofSeconds(10))).isTrue();
      a.sync();
      long before = store.currentRevision();
      List<PoolController.AppliedPlan> outcomes = a.controller.runCycle();

      assertThat(outcomes).hasSize(1);
      PoolController.AppliedPlan o = outcomes.get(0);
      assertThat(o.decision().direction()).isEqualTo(Direction.UP);
      assertThat(o.decision().powerOnIds()).containsExactlyInAnyOrder("g2", "g4");
      assertThat(o.revision()).isEqualTo(before + 1);
      assertThat(store.currentRevision()).isEqualTo(before + 1);
      assertThat(desired("g2")).isEqualTo(DesiredPower.ON);
      assertThat(desired("g4")).isEqualTo(DesiredPower.ON);
      assertThat(desired("g3")).isEqualTo(DesiredPower.OFF);
      assertThat(store.events("g2"))
          .extracting(NodeEvent::reason, NodeEvent::principal)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("pool-scale-up", "pool-controller"));

      PoolStatus s = status("gpu");
      assertThat(s.desiredNodes()).isEqualTo(3);
      assertThat(s.lastScaleTime()).isEqualTo(T0);
      assertThat(s.scalingNodes())
          .extracting(ScalingNode::node, ScalingNode::action)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("g2", "power-on"),
              org.assertj.core.groups.Tuple.tuple("g4", "power-on"));
      assertThat(s.scalingNodes().get(0).reason()).startsWith("pending-pods");
      assertThat(s.extensions()).containsEntry(PoolMemory.LAST_SCALE_UP, T0.toString());
      assertThat(s.utilization()).containsEntry("cpu", 0.5);
      assertThat(a.metric("bamel_pool_pending_pods", "pool", "gpu")).isEqualTo(3.0);
      assertThat(a.metric("bamel_pool_utilization_ratio", "pool", "gpu", "resource", "cpu"))
          .isEqualTo(0.5);
      assertThat(a.metric("bamel_pool_nodes", "pool", "gpu", "state", "ready")).isEqualTo(1.0);
      assertThat(a.metric("bamel_pool_nodes", "pool", "gpu", "state", "off")).isEqualTo(3.0);
      assertThat(a.metric("bamel_pool_desired_nodes", "pool", "gpu")).isEqualTo(3.0);
      // The thresholds in effect: the defaults, as the pool sets none.
      assertThat(a.metric("bamel_pool_threshold_ratio", "pool", "gpu", "direction", "up"))
          .isEqualTo(0.70);
      assertThat(a.metric("bamel_pool_threshold_ratio", "pool", "gpu", "direction", "down"))
          .isEqualTo(0.60);
      assertThat(
              a.metric(
                  "bamel_scale_decisions_total",
                  "pool",
                  "gpu",
                  "direction",
                  "up",
                  "reason",
                  "pending-pods"))
          .isEqualTo(1.0);
      assertThat(a.histogramCount("bamel_pool_decision_duration_seconds")).isEqualTo(1);

      // The next cycle sees the nodes coming up and switches nothing more.
      a.sync();
      clock.add(Duration.ofSeconds(15));
      List<PoolController.AppliedPlan> next = a.controller.runCycle();
      assertThat(next.get(0).decision().direction()).isEqualTo(Direction.NONE);
      assertThat(next.get(0).decision().reason()).startsWith("waiting-for-nodes");
      assertThat(store.events("g3")).isEmpty();
      assertThat(a.histogramCount("bamel_pool_decision_duration_seconds")).isEqualTo(2);
    }
  }

  @Test
  void whenLoadFallsExactlyOneNodeIsSwitchedOffAfterTheWindow() throws Exception {
    store.putPoolConfig(
        "web",
        PoolConfig.builder().minNodes(1).scaleDownUnneededTime(Duration.ofMinutes(10)).build(),
        0);
    for (String id : List.of("w1", "w2", "w3")) {
      node(id, "web", NodeState.READY, cpu("32", null), id.equals("w3") ? "r2" : "r1");
      kube.nodes().resource(KubeMock.node(id, true, "cpu", 32, "memory", "128Gi")).create();
    }
    kube.pods().resource(KubeMock.running("a", "w1", "cpu", 2)).create();
    kube.pods().resource(KubeMock.running("b", "w2", "cpu", 1)).create();
    kube.pods().resource(KubeMock.running("c", "w3", "cpu", 3)).create();

    try (Controllers a = controllers("a")) {
      assertThat(a.election.awaitLeadership(Duration.ofSeconds(10))).isTrue();
      a.sync();
      PoolController.AppliedPlan first = a.controller.runCycle().get(0);
      assertThat(first.decision().reason()).startsWith("waiting-unneeded-time");
      assertThat(status("web").extensions()).containsEntry(PoolMemory.LOW_SINCE, T0.toString());

      clock.add(Duration.ofMinutes(9));
      a.sync();
      assertThat(a.controller.runCycle().get(0).decision().direction()).isEqualTo(Direction.NONE);

      clock.add(Duration.ofMinutes(1));
      a.sync();
      long before = store.currentRevision();
      PoolController.AppliedPlan down = a.controller.runCycle().get(0);
      assertThat(down.decision().direction()).isEqualTo(Direction.DOWN);
      assertThat(down.decision().powerOffIds()).containsExactly("w2");
      assertThat(down.revision()).isEqualTo(before + 1);
      assertThat(desired("w1")).isEqualTo(DesiredPower.ON);
      assertThat(desired("w2")).isEqualTo(DesiredPower.OFF);
      assertThat(desired("w3")).isEqualTo(DesiredPower.ON);
      assertThat(status("web").desiredNodes()).isEqualTo(2);

      // While w2 goes down, nothing else is switched off.
      a.sync();
      clock.add(Duration.ofMinutes(15));
      PoolController.AppliedPlan after = a.controller.runCycle().get(0);
      assertThat(after.decision().direction()).isEqualTo(Direction.NONE);
      assertThat(after.decision().reason()).startsWith("transitions-in-flight");
      assertThat(desired("w1")).isEqualTo(DesiredPower.ON);
      assertThat(desired("w3")).isEqualTo(DesiredPower.ON);
    }
  }

  @Test
  void aPrometheusTriggerDrivesAScaleUp() throws Exception {
    WireMockServer prometheus =
        new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
    prometheus.start();
    try {
      String query = "sum(jobs_waiting{queue=\"batch\"})";
      prometheus.stubFor(
          get(urlPathEqualTo("/api/v1/query"))
              .withQueryParam("query", equalTo(query))
              .willReturn(
                  aResponse()
                      .withHeader("Content-Type", "application/json")
                      .withBody(
                          "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
                              + "[{\"metric\":{\"queue\":\"batch\"},\"value\":[1780315200,\"57\"]}]}}")));
      store.putPoolConfig(
          "batch",
          PoolConfig.builder()
              .triggers(
                  List.of(
                      new ScalingTrigger(
                          "queue", query, 10.0, Duration.ofMinutes(1), ScaleDirection.UP, null)))
              .build(),
          0);
      node("b1", "batch", NodeState.READY, cpu("32", null), "r1");
      node("b2", "batch", NodeState.OFF, cpu("32", null), "r1");
      kube.nodes().resource(KubeMock.node("b1", true, "cpu", 32, "memory", "128Gi")).create();
      kube.pods().resource(KubeMock.running("x", "b1", "cpu", 12)).create();

      try (Controllers a =
          controllers(
              "a",
              b ->
                  b.prometheus(
                          new PrometheusHttp(
                              URI.create(prometheus.baseUrl()), Duration.ofSeconds(15)))
                      .triggerBudget(Duration.ofSeconds(60)))) {
        assertThat(a.election.awaitLeadership(Duration.ofSeconds(10))).isTrue();
        a.sync();
        assertThat(a.controller.runCycle().get(0).decision().direction()).isEqualTo(Direction.NONE);
        assertThat(desired("b2")).isEqualTo(DesiredPower.OFF);

        clock.add(Duration.ofMinutes(1));
        a.sync();
        PoolController.AppliedPlan o = a.controller.runCycle().get(0);
        assertThat(o.decision().direction()).isEqualTo(Direction.UP);
        assertThat(o.decision().reason()).startsWith("trigger");
        assertThat(desired("b2")).isEqualTo(DesiredPower.ON);
        assertThat(condition(status("batch"), PoolStatuses.TRIGGERS_AVAILABLE).status())
            .isEqualTo("True");

        // Prometheus goes away: no vote, and the pool says why.
        prometheus.stop();
        clock.add(Duration.ofSeconds(15));
        a.sync();
        a.controller.runCycle();
        PoolCondition c = condition(status("batch"), PoolStatuses.TRIGGERS_AVAILABLE);
        assertThat(c.status()).isEqualTo("False");
        assertThat(c.message()).contains("queue");
      }
    } finally {
      prometheus.stop();
    }
  }

  @Test
  void ofTwoPoolControllersOnlyTheLeaderWrites() throws Exception {
    store.putPoolConfig("gpu", PoolConfig.builder().build(), 0);
    node("n1", "gpu", NodeState.OFF, cpu("32", null), "r1");
    node("n2", "gpu", NodeState.OFF, cpu("32", null), "r1");
    kube.pods().resource(KubeMock.pending("p1", "gpu", "cpu", 8)).create();

    try (Controllers a = controllers("a");
        Controllers b = controllers("b")) {
      assertThat(a.election.awaitLeadership(Duration.ofSeconds(10))).isTrue();
      Controllers leader = a;
      Controllers standby = b;
      a.sync();
      b.sync();
      long before = store.currentRevision();
      assertThat(standby.controller.runCycle()).isEmpty();
      assertThat(store.currentRevision()).isEqualTo(before);
      List<PoolController.AppliedPlan> outcomes = leader.controller.runCycle();
      assertThat(outcomes.get(0).decision().powerOnIds()).containsExactly("n1");
      assertThat(store.currentRevision()).isEqualTo(before + 1);

      // The leader resigns; the standby takes over and continues from the stored status.
      leader.election.close();
      assertThat(standby.election.awaitLeadership(Duration.ofSeconds(10))).isTrue();
      assertThat(leader.controller.runCycle()).isEmpty();
      standby.sync();
      clock.add(Duration.ofSeconds(15));
      PoolController.AppliedPlan o = standby.controller.runCycle().get(0);
      assertThat(o.decision().direction()).isEqualTo(Direction.NONE);
      assertThat(desired("n2")).isEqualTo(DesiredPower.OFF);
      assertThat(store.events("n1")).hasSize(1);
    }
  }

  @Test
  void dryRunRecordsTheDecisionAndWritesNoDesiredState() throws Exception {
    store.putPoolConfig("gpu", PoolConfig.builder().dryRun(true).build(), 0);
    node("n1", "gpu", NodeState.OFF, cpu("32", null), "r1");
    kube.pods().resource(KubeMock.pending("p1", "gpu", "cpu", 8)).create();
    long specRevision = store.getNode("n1").orElseThrow().specRevision();

    try (Controllers a = controllers("a")) {
      assertThat(a.election.awaitLeadership(Duration.ofSeconds(10))).isTrue();
      a.sync();
      PoolController.AppliedPlan o = a.controller.runCycle().get(0);
      assertThat(o.decision().powerOnIds()).containsExactly("n1");
      assertThat(o.revision()).isPositive();

      assertThat(desired("n1")).isEqualTo(DesiredPower.OFF);
      assertThat(store.getNode("n1").orElseThrow().specRevision()).isEqualTo(specRevision);
      assertThat(store.events("n1")).isEmpty();
      PoolStatus s = status("gpu");
      assertThat(s.lastScaleTime()).isNull();
      assertThat(s.scalingNodes()).extracting(ScalingNode::node).containsExactly("n1");
      assertThat(s.scalingNodes().get(0).reason()).startsWith("dry-run: pending-pods");
      assertThat(condition(s, PoolStatuses.DRY_RUN).status()).isEqualTo("True");
      @SuppressWarnings("unchecked")
      Map<String, Object> last =
          (Map<String, Object>) s.extensions().get(PoolStatuses.LAST_DECISION);
      assertThat(last).containsEntry("direction", "up").containsEntry("dryRun", true);
      assertThat(last.get("powerOn")).isEqualTo(List.of("n1"));
    }
  }

  @Test
  void unreachableKubernetesMeansUnknownUtilizationAndNoScaleDown() throws Exception {
    store.putPoolConfig(
        "web",
        PoolConfig.builder().scaleUpThreshold(0.85).scaleDownUnneededTime(Duration.ZERO).build(),
        0);
    node("w1", "web", NodeState.READY, cpu("32", null), "r1");
    node("w2", "web", NodeState.READY, cpu("32", null), "r1");
    kubeServer.close();
    // the informers keep what they listed until the cluster's probe (every second) sees the outage
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !cluster.synced());
    ListAppender<ILoggingEvent> logged = captureLog();
    try (Controllers a = controllers("a")) {
      assertThat(a.election.awaitLeadership(Duration.ofSeconds(10))).isTrue();
      a.sync();
      PoolController.AppliedPlan o = a.controller.runCycle().get(0);
      a.controller.runCycle();
      List<String> warned = warnings(logged);
      assertThat(warned).as("the outage is one warning over two cycles").hasSize(1);
      assertThat(warned.get(0))
          .startsWith("kubernetes-read failed: cluster=kubernetes cause=unavailable reason=");
      assertThat(o.decision().direction()).isEqualTo(Direction.NONE);
      assertThat(o.decision().reason()).startsWith("utilization-unknown");
      PoolCondition c = condition(status("web"), PoolStatuses.UTILIZATION_KNOWN);
      assertThat(c.status()).isEqualTo("False");
      assertThat(c.message()).contains("Kubernetes");
      assertThat(desired("w1")).isEqualTo(DesiredPower.ON);
      assertThat(desired("w2")).isEqualTo(DesiredPower.ON);
      assertThat(a.metric("bamel_pool_utilization_ratio", "pool", "web", "resource", "cpu"))
          .isNaN();
      // The pool's own scale-up threshold, the default scale-down one.
      assertThat(a.metric("bamel_pool_threshold_ratio", "pool", "web", "direction", "up"))
          .isEqualTo(0.85);
      assertThat(a.metric("bamel_pool_threshold_ratio", "pool", "web", "direction", "down"))
          .isEqualTo(0.60);
    }
  }

  @Test
  void offNodesAccumulateSavedEnergy() throws Exception {
    store.putPoolConfig("web", PoolConfig.builder().minNodes(0).build(), 0);
    node("w1", "web", NodeState.OFF, cpu("32", null), "r1");
    try (Controllers a = controllers("a")) {
      assertThat(a.election.awaitLeadership(Duration.ofSeconds(10))).isTrue();
      a.sync();
      a.controller.runCycle();
      clock.add(Duration.ofSeconds(15));
      a.controller.runCycle();
      assertThat(a.metric("bamel_energy_saved_joules_total", "pool", "web")).isEqualTo(120.0 * 15);
      assertThat(a.metric("bamel_pool_nodes", "pool", "web", "state", "off")).isEqualTo(1.0);
      assertThat(a.metric("bamel_pool_power_watts", "pool", "web")).isEqualTo(0.0);

      // A BMC reading of the node: it counts in the pool's power draw.
      store.putReadings(
          "w1", new io.bamel.inventory.model.NodeReadings(T0, 9.5, Map.of(), null), null);
      a.sync();
      clock.add(Duration.ofSeconds(15));
      a.controller.runCycle();
      assertThat(a.metric("bamel_pool_power_watts", "pool", "web")).isEqualTo(9.5);
      assertThat(a.metric("bamel_energy_saved_joules_total", "pool", "web")).isEqualTo(120.0 * 30);
    }
  }

  @Test
  void startedTheLoopActsOnItsOwnWhileLeading() throws Exception {
    store.putPoolConfig("gpu", PoolConfig.builder().build(), 0);
    node("n1", "gpu", NodeState.OFF, cpu("32", null), "r1");
    kube.pods().resource(KubeMock.pending("p1", "gpu", "cpu", 8)).create();
    try (Controllers a = controllers("a", b -> b.interval(Duration.ofMillis(200)))) {
      a.controller.start();
      org.awaitility.Awaitility.await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(() -> assertThat(desired("n1")).isEqualTo(DesiredPower.ON));
      assertThat(status("gpu").desiredNodes()).isEqualTo(1);
    }
  }

  @Test
  void aNodeStuckJoiningPastThePoolsJoinTimeoutIsReplaced() throws Exception {
    store.putPoolConfig(
        "web",
        PoolConfig.builder()
            .minNodes(1)
            .timeouts(
                io.bamel.inventory.model.NodeTimeouts.of(null, Duration.ofMinutes(30), null, null))
            .build(),
        0);
    node("stuck", "web", NodeState.JOINING, cpu("32", null), "r1"); // joining for an hour
    node("spare", "web", NodeState.OFF, cpu("32", null), "r1");
    try (Controllers a = controllers("a")) {
      assertThat(a.election.awaitLeadership(Duration.ofSeconds(10))).isTrue();
      a.sync();
      PoolController.AppliedPlan o = a.controller.runCycle().get(0);
      assertThat(o.decision().reason()).startsWith("min-nodes");
      assertThat(o.decision().powerOnIds()).containsExactly("spare");
      assertThat(desired("spare")).isEqualTo(DesiredPower.ON);
    }
  }

  @Test
  void aNodeChangedSinceTheCacheReadItFailsTheWholeDecision() throws Exception {
    store.putPoolConfig("gpu", PoolConfig.builder().build(), 0);
    node("n1", "gpu", NodeState.OFF, cpu("32", null), "r1");
    node("n2", "gpu", NodeState.OFF, cpu("32", null), "r1");
    kube.pods().resource(KubeMock.pending("p1", "gpu", "cpu", 30)).create();
    kube.pods().resource(KubeMock.pending("p2", "gpu", "cpu", 30)).create();
    try (Controllers a = controllers("a")) {
      assertThat(a.election.awaitLeadership(Duration.ofSeconds(10))).isTrue();
      a.sync();
      a.cache.close(); // frozen: the controller decides from what it saw
      StoreEdits.updateSpec(store, "n2", spec -> spec.toBuilder().rack("r9").build(), null);
      long before = store.currentRevision();

      PoolController.AppliedPlan o = a.controller.runCycle().get(0);

      assertThat(o.decision().powerOnIds()).containsExactlyInAnyOrder("n1", "n2");
      assertThat(o.revision()).isEqualTo(-1);
      assertThat(o.error()).startsWith("conflict");
      assertThat(store.currentRevision()).isEqualTo(before);
      assertThat(desired("n1")).isEqualTo(DesiredPower.OFF);
      assertThat(desired("n2")).isEqualTo(DesiredPower.OFF);
      assertThat(store.getPool("gpu").orElseThrow().status()).isNull();
      assertThat(
              a.metric(
                  "bamel_scale_decisions_total",
                  "pool",
                  "gpu",
                  "direction",
                  "up",
                  "reason",
                  "pending-pods"))
          .isNaN();
    }
  }

  @Test
  void aDeposedLeadersDecisionIsFencedAndWritesNothing() throws Exception {
    store.putPoolConfig("p1", PoolConfig.builder().build(), 0);
    store.putPoolConfig("p2", PoolConfig.builder().build(), 0);
    node("n1", "p1", NodeState.OFF, cpu("32", null), "r1");
    node("n2", "p2", NodeState.OFF, cpu("32", null), "r1");
    kube.pods().resource(KubeMock.pending("x1", "p1", "cpu", 8)).create();
    kube.pods().resource(KubeMock.pending("x2", "p2", "cpu", 8)).create();
    DeposingCluster deposing = new DeposingCluster(cluster);
    try (Controllers a = new Controllers(client, "a", deposing, clock, b -> {})) {
      assertThat(a.cache.awaitSynced(Duration.ofSeconds(10))).isTrue();
      assertThat(a.election.awaitLeadership(Duration.ofSeconds(10))).isTrue();
      awaitInformersHoldTheApiServersObjects();
      // b starts only once a leads: started together, either could win the first campaign.
      try (Controllers b = new Controllers(client, "b", cluster, clock, x -> {})) {
        a.sync();
        long[] afterDeposition = {-1};
        // a reads its fence, then loses leadership while it reads the cluster (as when its lease
        // expires mid-cycle); b takes over; a's decision still carries a's old fence.
        deposing.whileReadingPods(
            () -> {
              a.election.close();
              try {
                // Generous: on a loaded machine the standby's campaign can take seconds.
                assertThat(b.election.awaitLeadership(Duration.ofSeconds(30))).isTrue();
              } catch (InterruptedException e) {
                throw new AssertionError(e);
              }
              afterDeposition[0] = store.currentRevision();
            });

        List<PoolController.AppliedPlan> outcomes = a.controller.runCycle();

        assertThat(afterDeposition[0]).isPositive();
        assertThat(outcomes).as("the cycle stops at the first refused write").hasSize(1);
        PoolController.AppliedPlan o = outcomes.get(0);
        assertThat(o.pool()).isEqualTo("p1");
        assertThat(o.decision().powerOnIds()).containsExactly("n1");
        assertThat(o.fenced()).isTrue();
        assertThat(o.error()).contains("not the leader");
        assertThat(o.revision()).isEqualTo(-1);
        assertThat(store.currentRevision()).as("nothing written").isEqualTo(afterDeposition[0]);
        assertThat(desired("n1")).isEqualTo(DesiredPower.OFF);
        assertThat(desired("n2")).isEqualTo(DesiredPower.OFF);
        assertThat(store.events("n1")).isEmpty();
        assertThat(store.getPool("p1").orElseThrow().status()).isNull();
        assertThat(store.getPool("p2").orElseThrow().status()).isNull();
        assertThat(
                a.metric(
                    "bamel_scale_decisions_total",
                    "pool",
                    "p1",
                    "direction",
                    "up",
                    "reason",
                    "pending-pods"))
            .isNaN();
        assertThat(a.controller.runCycle()).as("no longer leading: no cycle").isEmpty();
      }
    }
  }

  @Test
  void aDryRunRepeatingItselfWritesItsStatusOnceAndCountsOnce() throws Exception {
    long configRevision = store.putPoolConfig("gpu", PoolConfig.builder().dryRun(true).build(), 0);
    node("n1", "gpu", NodeState.OFF, cpu("32", null), "r1");
    kube.pods().resource(KubeMock.pending("p1", "gpu", "cpu", 8)).create();

    try (Controllers a = controllers("a")) {
      assertThat(a.election.awaitLeadership(Duration.ofSeconds(10))).isTrue();
      a.sync();
      long before = store.currentRevision();
      PoolController.AppliedPlan first = a.controller.runCycle().get(0);
      assertThat(first.decision().powerOnIds()).containsExactly("n1");
      assertThat(first.revision()).isEqualTo(before + 1);

      for (int i = 0; i < 5; i++) {
        clock.add(Duration.ofSeconds(15));
        a.sync();
        PoolController.AppliedPlan o = a.controller.runCycle().get(0);
        assertThat(o.decision().powerOnIds()).containsExactly("n1");
        assertThat(o.revision()).as("cycle %d wrote", i + 2).isEqualTo(-1);
      }
      assertThat(store.currentRevision()).isEqualTo(before + 1);
      assertThat(
              a.metric(
                  "bamel_scale_decisions_total",
                  "pool",
                  "gpu",
                  "direction",
                  "up",
                  "reason",
                  "pending-pods"))
          .isEqualTo(1.0);
      PoolStatus s = status("gpu");
      assertThat(s.extensions()).doesNotContainKey(PoolMemory.LAST_SCALE_UP);
      assertThat(s.scalingNodes()).singleElement().extracting(ScalingNode::since).isEqualTo(T0);
      @SuppressWarnings("unchecked")
      Map<String, Object> last =
          (Map<String, Object>) s.extensions().get(PoolStatuses.LAST_DECISION);
      assertThat(last).containsEntry("since", T0.toString()).containsEntry("dryRun", true);

      // A new leader (nothing in memory) continues from the stored status: still no write.
      try (Controllers b = controllers("b")) {
        a.election.close();
        assertThat(b.election.awaitLeadership(Duration.ofSeconds(10))).isTrue();
        b.sync();
        long handover = store.currentRevision();
        clock.add(Duration.ofSeconds(15));
        assertThat(b.controller.runCycle().get(0).revision()).isEqualTo(-1);
        assertThat(store.currentRevision()).isEqualTo(handover);

        // Dry run off: the decision is executed at once, and counted as a real one.
        store.putPoolConfig("gpu", PoolConfig.builder().dryRun(false).build(), configRevision);
        b.sync();
        clock.add(Duration.ofSeconds(15));
        PoolController.AppliedPlan real = b.controller.runCycle().get(0);
        assertThat(real.decision().powerOnIds()).containsExactly("n1");
        assertThat(real.revision()).isPositive();
        assertThat(desired("n1")).isEqualTo(DesiredPower.ON);
        PoolStatus after = status("gpu");
        assertThat(after.lastScaleTime()).isEqualTo(clock.instant());
        assertThat(after.scalingNodes())
            .singleElement()
            .satisfies(
                n -> {
                  assertThat(n.since()).isEqualTo(clock.instant());
                  assertThat(n.reason()).startsWith("pending-pods");
                });
      }
    }
  }

  @Test
  void aSlowPrometheusQueryFailsAtTheBudgetAndBlocksOnlyItsScaleDown() throws Exception {
    WireMockServer prometheus =
        new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
    prometheus.start();
    try {
      String queue = "sum(jobs_waiting)";
      String idle = "sum(rate(http_requests_total[5m]))";
      prometheus.stubFor(promAnswer(queue, "57", 0));
      prometheus.stubFor(promAnswer(idle, "1", 30_000)); // far beyond the budget
      store.putPoolConfig(
          "batch",
          PoolConfig.builder()
              .triggers(
                  List.of(
                      new ScalingTrigger(
                          "queue", queue, 10.0, Duration.ZERO, ScaleDirection.UP, null)))
              .build(),
          0);
      store.putPoolConfig(
          "web",
          PoolConfig.builder()
              .scaleDownUnneededTime(Duration.ZERO)
              .triggers(
                  List.of(
                      new ScalingTrigger(
                          "idle", idle, 5.0, Duration.ZERO, ScaleDirection.DOWN, null)))
              .build(),
          0);
      node("b1", "batch", NodeState.READY, cpu("32", null), "r1");
      node("b2", "batch", NodeState.OFF, cpu("32", null), "r1");
      node("w1", "web", NodeState.READY, cpu("32", null), "r1");
      node("w2", "web", NodeState.READY, cpu("32", null), "r1");
      for (String n : List.of("b1", "w1", "w2")) {
        kube.nodes().resource(KubeMock.node(n, true, "cpu", 32, "memory", "128Gi")).create();
      }
      kube.pods().resource(KubeMock.running("x", "b1", "cpu", 12)).create();
      kube.pods().resource(KubeMock.running("y", "w1", "cpu", 2)).create();
      kube.pods().resource(KubeMock.running("z", "w2", "cpu", 1)).create();
      PrometheusHttp http =
          new PrometheusHttp(URI.create(prometheus.baseUrl()), Duration.ofSeconds(60));
      http.query(queue); // warm up the client and the server, so only the slow query is slow

      ListAppender<ILoggingEvent> logged = captureLog();
      try (Controllers a =
          controllers("a", b -> b.prometheus(http).triggerBudget(Duration.ofSeconds(3)))) {
        assertThat(a.election.awaitLeadership(Duration.ofSeconds(10))).isTrue();
        a.sync();
        Map<String, PoolController.AppliedPlan> o = byPool(a.controller.runCycle());
        assertThat(warnings(logged))
            .containsExactly(
                "trigger-query failed: pool=web cause=trigger-query"
                    + " reason=\"trigger idle: no answer within the budget of 3000 ms\"");

        assertThat(o.get("batch").decision().direction()).isEqualTo(Direction.UP);
        assertThat(o.get("batch").decision().reason()).startsWith("trigger");
        assertThat(condition(status("batch"), PoolStatuses.TRIGGERS_AVAILABLE).status())
            .isEqualTo("True");
        assertThat(o.get("web").decision().direction()).isEqualTo(Direction.NONE);
        assertThat(o.get("web").decision().reason()).startsWith("triggers-disagree");
        PoolCondition c = condition(status("web"), PoolStatuses.TRIGGERS_AVAILABLE);
        assertThat(c.status()).isEqualTo("False");
        assertThat(c.message()).isEqualTo("trigger idle: no answer within the budget of 3000 ms");
        assertThat(desired("w1")).isEqualTo(DesiredPower.ON);
        assertThat(desired("w2")).isEqualTo(DesiredPower.ON);

        // Prometheus answers in time again: the down trigger votes and web scales down.
        prometheus.stubFor(promAnswer(idle, "1", 0));
        clock.add(Duration.ofSeconds(15));
        a.sync();
        PoolController.AppliedPlan web = byPool(a.controller.runCycle()).get("web");
        assertThat(web.decision().direction()).isEqualTo(Direction.DOWN);
        assertThat(web.decision().powerOffIds()).containsExactly("w2");
        assertThat(condition(status("web"), PoolStatuses.TRIGGERS_AVAILABLE).status())
            .isEqualTo("True");
        assertThat(logged.list)
            .extracting(ILoggingEvent::getFormattedMessage)
            .anyMatch(m -> m.startsWith("trigger-query recovered: pool=web cause=trigger-query"));
      }
    } finally {
      prometheus.stop();
    }
  }

  @Test
  void aPendingPodIsServedByOnePoolItCanLandIn() throws Exception {
    store.putPoolConfig("alpha", PoolConfig.builder().build(), 0);
    store.putPoolConfig("beta", PoolConfig.builder().build(), 0);
    store.putPoolConfig("general", PoolConfig.builder().defaultPool(true).build(), 0);
    node("a1", "alpha", NodeState.OFF, cpu("32", null), "r1");
    node("a2", "alpha", NodeState.OFF, cpu("32", null), "r1");
    node("b1", "beta", NodeState.OFF, cpu("32", null), "r1");
    node("g1", "general", NodeState.OFF, cpu("32", null), "r1");
    // nodeSelector alpha AND affinity In [alpha, beta]: only alpha.
    kube.pods()
        .resource(
            KubeMock.pendingWithAffinity("pinned", "alpha", List.of("alpha", "beta"), "cpu", 4))
        .create();
    // affinity In [beta, alpha]: either; alpha comes first by name and can hold it.
    kube.pods()
        .resource(KubeMock.pendingWithAffinity("choosy", null, List.of("beta", "alpha"), "cpu", 4))
        .create();
    // no pool: the default pool.
    kube.pods().resource(KubeMock.pending("free", null, "cpu", 4)).create();

    try (Controllers a = controllers("a")) {
      assertThat(a.election.awaitLeadership(Duration.ofSeconds(10))).isTrue();
      a.sync();
      Map<String, PoolController.AppliedPlan> o = byPool(a.controller.runCycle());

      assertThat(o.get("alpha").decision().powerOnIds()).containsExactly("a1");
      assertThat(o.get("alpha").decision().reason()).isEqualTo("pending-pods: 2 pending pods");
      assertThat(o.get("beta").decision().direction()).isEqualTo(Direction.NONE);
      assertThat(o.get("general").decision().powerOnIds()).containsExactly("g1");
      assertThat(desired("b1")).isEqualTo(DesiredPower.OFF);
      assertThat(a.metric("bamel_pool_pending_pods", "pool", "alpha")).isEqualTo(2.0);
      assertThat(a.metric("bamel_pool_pending_pods", "pool", "beta")).isEqualTo(0.0);
      assertThat(a.metric("bamel_pool_pending_pods", "pool", "general")).isEqualTo(1.0);
    }
  }

  private static Map<String, PoolController.AppliedPlan> byPool(
      List<PoolController.AppliedPlan> list) {
    Map<String, PoolController.AppliedPlan> out = new java.util.HashMap<>();
    list.forEach(o -> out.put(o.pool(), o));
    return out;
  }

  private static com.github.tomakehurst.wiremock.client.MappingBuilder promAnswer(
      String query, String value, int delayMillis) {
    return get(urlPathEqualTo("/api/v1/query"))
        .withQueryParam("query", equalTo(query))
        .willReturn(
            aResponse()
                .withFixedDelay(delayMillis)
                .withHeader("Content-Type", "application/json")
                .withBody(
                    "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
                        + "[{\"metric\":{},\"value\":[1780315200,\""
                        + value
                        + "\"]}]}}"));
  }

  /** The cluster, with a hook run once while the next cycle lists the pods. */
  private static final class DeposingCluster extends io.bamel.inventory.cluster.ForwardingCluster {
    private volatile Runnable hook;

    DeposingCluster(io.bamel.inventory.cluster.Cluster delegate) {
      super(delegate);
    }

    void whileReadingPods(Runnable r) {
      hook = r;
    }

    @Override
    public List<io.bamel.inventory.cluster.KubePod> pods() {
      runHook();
      return super.pods();
    }

    @Override
    public io.bamel.inventory.cluster.PodSummary podSummary() {
      runHook(); // the read a cycle makes of the pods
      return super.podSummary();
    }

    private void runHook() {
      Runnable r = hook;
      hook = null;
      if (r != null) {
        r.run();
      }
    }

    @Override
    public void onPendingPod(
        java.util.function.Consumer<io.bamel.inventory.cluster.KubePod> listener) {
      // as before: the test runs each cycle itself, a pending pod wakes nothing
    }
  }
}
