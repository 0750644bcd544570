package io.bamel.node;

import static io.bamel.inventory.model.NodeState.ERROR;
import static io.bamel.inventory.model.NodeState.JOINING;
import static io.bamel.inventory.model.NodeState.OFF;
import static io.bamel.inventory.model.NodeState.READY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.leader.LeaderElection;
import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.NodeTimeouts;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PoolStatus;
import io.bamel.inventory.model.PowerAction;
import io.bamel.inventory.store.BatchItem;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.kube.Fabric8Cluster;
import io.bamel.pool.PoolController;
import io.bamel.pool.PoolController.AppliedPlan;
import io.bamel.pool.ScalingDecision.Choice;
import io.bamel.pool.ScalingDecision.Direction;
import io.bamel.power.PowerOperation;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 17's NotReady rule end to end: real etcd, the simulated Redfish fleet behind a counting
 * driver, the fabric8 mock API server read through {@link Fabric8Cluster}'s informers, the node
 * controller and the pool controller in one process, both on one fake clock (real time plus an
 * offset the test moves: every timeout is minutes long and passed by moving the clock).
 *
 * <p>A pool of two managed nodes with {@code minNodes: 1}: node A ready, node B off. A's Kubernetes
 * node goes NotReady: after the pool's {@code timeouts.notReady} A no longer counts as capacity,
 * and the pool controller's next cycle switches B on in its place (B joins); after {@code
 * timeouts.remediation} A is power-cycled once (written ahead: ready to joining); A's node stays
 * NotReady, so after the join timeout A ends in {@code error}, with no second cycle, and the pool
 * counts B alone.
 */
class NotReadyRemediationIT extends TestSiteTests {

  static final Duration WAIT = Duration.ofSeconds(10);

  /** The pool's timeouts: minutes, passed by moving the clock, never waited for. */
  static final NodeTimeouts POOL_TIMEOUTS =
      NodeTimeouts.of(
              Duration.ofMinutes(5),
              Duration.ofMinutes(10),
              Duration.ofMinutes(10),
              Duration.ofMinutes(5))
          .withNotReady(Duration.ofMinutes(5), Duration.ofMinutes(15));

  Client poolClient;
  InventoryCache poolCache;
  LeaderElection election;
  Fabric8Cluster cluster;
  PoolController pools;

  @AfterEach
  void tearDown() throws Exception {
    for (AutoCloseable c : new AutoCloseable[] {pools, cluster, election, poolCache, poolClient}) {
      if (c != null) {
        c.close();
      }
    }
  }

  @Test
  void aReadyNodeNotReadyStopsCountingIsCycledOnceThenErrs() throws Exception {
    openKubernetesSite();
    OffsetClock clock = new OffsetClock();
    site.inventory.putPoolConfig(
        "p", PoolConfig.builder().minNodes(1).timeouts(POOL_TIMEOUTS).build(), BatchItem.ANY);
    List<String> ids = site.addNodes(2, "p", DesiredPower.OFF);
    String a = ids.get(0);
    String b = ids.get(1);
    site.desire(a, DesiredPower.ON);
    TestSite.Wrapped<CountingDriver> counted =
        site.counted(
            "a",
            // long default timeouts (the pool's apply); a node is looked at every 500 ms, so a
            // moved clock is noticed soon
            TestSite.CONFIG
                .withTimeouts(NodeTimeouts.DEFAULTS)
                .withIntervals(Duration.ofMillis(500), Duration.ofMillis(100)),
            clock);
    ControllerInstance nodes = counted.controller();
    CountingDriver calls = counted.driver();
    site.awaitState(List.of(a), READY, WAIT);
    site.awaitState(List.of(b), OFF, WAIT);
    startPoolController(clock);

    // A ready and counted: minNodes is met, nothing to switch
    AppliedPlan steady = cycle();
    assertThat(steady.decision().direction()).isEqualTo(Direction.NONE);
    assertThat(poolStatus().readyNodes()).isEqualTo(1);

    // A's Kubernetes node goes NotReady; A's kubelet now registers elsewhere, so nothing makes
    // A's node Ready again, not even the power cycle (B's kubelet still joins B when it is on)
    site.kubelets.nodeName(a, "elsewhere");
    setReady(a, false);
    await().atMost(WAIT).until(() -> site.node(a).status().notReadySince() != null);
    assertThat(site.state(a)).isEqualTo(READY);
    clock.advance(Duration.ofMinutes(4));
    AppliedPlan early = cycle();
    assertThat(early.decision().direction())
        .as("within timeouts.notReady A still counts")
        .isEqualTo(Direction.NONE);

    // past timeouts.notReady: A is no capacity; the pool switches B on in its place
    clock.advance(Duration.ofMinutes(2));
    await().atMost(WAIT).until(() -> site.node(a).status().lastError() != null);
    assertThat(site.node(a).status().lastError()).startsWith("not pool capacity: ");
    assertThat(site.state(a)).isEqualTo(READY);
    AppliedPlan replaced = cycle();
    assertThat(replaced.decision().direction()).isEqualTo(Direction.UP);
    assertThat(replaced.decision().powerOn()).extracting(Choice::node).containsExactly(b);
    assertThat(site.node(b).spec().desiredPowerOrOff()).isEqualTo(DesiredPower.ON);
    assertThat(site.node(a).spec().desiredPowerOrOff()).isEqualTo(DesiredPower.ON);
    PoolStatus status = poolStatus();
    assertThat(status.readyNodes()).as("A no longer counts as ready capacity").isZero();
    assertThat(status.scalingNodes()).anyMatch(n -> n.node().equals(b));
    assertThat(calls.calls(site.address(a), PowerOperation.CYCLE)).isZero();
    site.awaitState(List.of(b), READY, WAIT);

    // past timeouts.remediation (from the same start): one power cycle, written ahead
    clock.advance(Duration.ofMinutes(10));
    site.awaitState(List.of(a), JOINING, WAIT, Duration.ofMillis(20));
    NodeStatus cycling = site.node(a).status();
    assertThat(cycling.lastPowerAction()).isEqualTo(PowerAction.POWER_CYCLE);
    assertThat(cycling.cycled()).isTrue();
    await().atMost(WAIT).until(() -> calls.calls(site.address(a), PowerOperation.CYCLE) == 1);

    // the join does not recover (A's node stays NotReady): error after the join timeout
    clock.advance(Duration.ofMinutes(11));
    site.awaitState(List.of(a), ERROR, WAIT, Duration.ofMillis(5));
    assertThat(site.node(a).status().lastError()).contains("after a power cycle");
    assertThat(calls.calls(site.address(a), PowerOperation.CYCLE)).as("power-cycled once").isOne();
    List<NodeEvent> events = site.events(a);
    assertThat(events).anyMatch(e -> "not-ready".equals(e.result()) && e.to() == READY);
    assertThat(events)
        .filteredOn(e -> "power-cycle".equals(e.action()))
        .filteredOn(e -> e.from() == READY && e.to() == JOINING)
        .hasSize(1);
    assertThat(events).anyMatch(e -> e.from() == JOINING && e.to() == ERROR);
    assertThat(nodes.metric("bamel_node_remediations_total", "result", "not-ready")).isOne();
    assertThat(nodes.metric("bamel_node_remediations_total", "result", "power-cycle")).isOne();
    assertThat(nodes.metric("bamel_node_remediations_total", "result", "error")).isOne();

    // the pool counts B, not A: minNodes is met, nothing more is switched on
    AppliedPlan after = cycle();
    assertThat(after.decision().direction()).isEqualTo(Direction.NONE);
    assertThat(poolStatus().readyNodes()).isEqualTo(1);
    assertThat(site.state(b)).isEqualTo(READY);
  }

  private void startPoolController(OffsetClock clock) throws InterruptedException {
    poolClient = site.etcd.client();
    poolCache = new InventoryCache(poolClient).start();
    election =
        new LeaderElection(
                poolClient,
                "pool-controller",
                "it",
                LeaderElection.Options.withTtl(Duration.ofSeconds(10)))
            .start();
    cluster = new Fabric8Cluster(site.api.client());
    pools =
        PoolController.builder()
            .store(new EtcdInventory(poolClient))
            .cache(poolCache)
            .cluster(cluster)
            .election(election)
            .registry(new PrometheusRegistry())
            .clock(clock)
            .canPowerOff(n -> true)
            .build();
    assertThat(poolCache.awaitSynced(WAIT)).isTrue();
    assertThat(election.awaitLeadership(WAIT)).isTrue();
    await().atMost(WAIT).until(cluster::synced);
  }

  /** One pool-controller cycle on what etcd and the API server hold now. */
  private AppliedPlan cycle() throws InterruptedException {
    // the cache and the informers first catch up with every write so far
    assertThat(poolCache.awaitRevision(site.inventory.currentRevision(), WAIT)).isTrue();
    List<AppliedPlan> plans = pools.runCycle();
    assertThat(plans).hasSize(1);
    AppliedPlan plan = plans.get(0);
    assertThat(plan.error()).isNull();
    if (plan.revision() >= 0) {
      assertThat(poolCache.awaitRevision(plan.revision(), WAIT)).isTrue();
    }
    return plan;
  }

  private PoolStatus poolStatus() {
    return site.inventory.getPool("p").orElseThrow().status();
  }

  /**
   * Sets the Ready condition of Kubernetes node {@code name} as Kubernetes does: its kubelet posts
   * {@code True}/{@code KubeletReady}; when the kubelet stops posting, the node lifecycle
   * controller sets {@code Unknown}/{@code NodeStatusUnknown} and taints the node unreachable.
   */
  private void setReady(String name, boolean ready) {
    String now =
        java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
    site.kube
        .nodes()
        .withName(name)
        .edit(
            n -> {
              n.getStatus()
                  .setConditions(
                      List.of(
                          new NodeConditionBuilder()
                              .withType("Ready")
                              .withStatus(ready ? "True" : "Unknown")
                              .withReason(ready ? "KubeletReady" : "NodeStatusUnknown")
                              .withMessage(
                                  ready
                                      ? "kubelet is posting ready status"
                                      : "Kubelet stopped posting node status.")
                              .withLastHeartbeatTime(now)
                              .withLastTransitionTime(now)
                              .build()));
              if (n.getSpec() == null) {
                n.setSpec(new io.fabric8.kubernetes.api.model.NodeSpec());
              }
              n.getSpec()
                  .setTaints(
                      ready
                          ? List.of()
                          : List.of(
                              new TaintBuilder()
                                  .withKey("node.kubernetes.io/unreachable")
                                  .withEffect("NoSchedule")
                                  .withTimeAdded(now)
                                  .build(),
                              new TaintBuilder()
                                  .withKey("node.kubernetes.io/unreachable")
                                  .withEffect("NoExecute")
                                  .withTimeAdded(now)
                                  .build()));
              return n;
            });
    await().atMost(WAIT).until(() -> cluster.node(name).map(k -> k.ready() == ready).orElse(false));
  }
}
