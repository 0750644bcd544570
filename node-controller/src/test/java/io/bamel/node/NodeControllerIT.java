package io.bamel.node;

import static io.bamel.inventory.model.NodeState.DRAINING;
import static io.bamel.inventory.model.NodeState.ERROR;
import static io.bamel.inventory.model.NodeState.JOINING;
import static io.bamel.inventory.model.NodeState.OFF;
import static io.bamel.inventory.model.NodeState.POWERING_OFF;
import static io.bamel.inventory.model.NodeState.POWERING_ON;
import static io.bamel.inventory.model.NodeState.READY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.ObservedPower;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PowerAction;
import io.bamel.inventory.store.BatchItem;
import io.bamel.kube.testing.KubeObjects;
import io.bamel.power.BmcPowerState;
import io.bamel.power.PowerOperation;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The node controller end to end: real etcd, the simulated Redfish fleet, and the fabric8 mock API
 * server (CRUD mode) with fake kubelets.
 */
class NodeControllerIT extends TestSiteTests {

  /** A running pod of ReplicaSet {@code rs} in {@code apps} on {@code node}, no requests. */
  void addWorkload(String node, String name, Map<String, String> labels) {
    site.kube
        .pods()
        .resource(
            KubeObjects.pod(name)
                .labels(labels)
                .owner("ReplicaSet", "rs", "u-" + name)
                .onNode(node)
                .build())
        .create();
  }

  @Test
  void oneNodeAllTheWayUpAndDown() throws Exception {
    openKubernetesSite();
    site.inventory.putPoolConfig(
        "batch",
        PoolConfig.builder().labels(Map.of("bamel.io/tier", "batch")).build(),
        BatchItem.ANY);
    String id = site.addNodes(1, "batch", DesiredPower.OFF).get(0);
    TestSite.Wrapped<CountingDriver> a = site.counted("a", TestSite.CONFIG);
    ControllerInstance c = a.controller();
    site.awaitState(List.of(id), OFF, WAIT);

    site.desire(id, DesiredPower.ON);
    site.awaitState(List.of(id), READY, WAIT);
    var k8sNode = site.kube.nodes().withName(id).get();
    assertThat(k8sNode.getMetadata().getLabels())
        .containsEntry(Cluster.POOL_LABEL, "batch")
        .containsEntry("bamel.io/tier", "batch");
    assertThat(k8sNode.getSpec() == null ? null : k8sNode.getSpec().getUnschedulable())
        .isNotEqualTo(Boolean.TRUE);
    var status = site.node(id).status();
    assertThat(status.observedPower()).isEqualTo(ObservedPower.ON);
    assertThat(status.kubernetesNode()).isEqualTo(id);
    assertThat(status.nodeReady()).isTrue();
    assertThat(status.lastPowerAction()).isEqualTo(PowerAction.POWER_ON);
    assertThat(status.joinTime()).isNotNull();

    // the next power sync reads the power draw where the BMC reports it
    await().atMost(WAIT).until(() -> c.metric("bamel_node_power_watts", "node", id) > 0);
    assertThat(site.node(id).readings().powerWatts()).isPositive();

    addWorkload(id, "web-1", Map.of("app", "web"));
    site.desire(id, DesiredPower.OFF);
    site.awaitState(List.of(id), OFF, WAIT);
    assertThat(site.fleet.system(id).powerState()).isEqualTo(BmcPowerState.OFF);
    assertThat(site.api.evictions()).isEqualTo(1);
    assertThat(site.kube.pods().inNamespace("apps").withName("web-1").get()).isNull();

    List<NodeState> path =
        site.events(id).stream()
            .filter(e -> e.to() != null && e.from() != e.to())
            .map(NodeEvent::to)
            .toList();
    assertThat(path)
        .containsSubsequence(OFF, POWERING_ON, JOINING, READY, DRAINING, POWERING_OFF, OFF);
    assertThat(site.resets(id, "On")).isEqualTo(1);
    assertThat(site.resets(id, "GracefulShutdown")).isEqualTo(1);
    assertThat(a.driver().calls(site.address(id), PowerOperation.ON)).isEqualTo(1);
    assertThat(a.driver().calls(site.address(id), PowerOperation.OFF)).isEqualTo(1);
    assertThat(a.driver().calls(site.address(id), PowerOperation.BOOT)).as("no PXE asked").isZero();
    assertThat(c.metric("bamel_node_transitions_total", "from", "joining", "to", "ready"))
        .isEqualTo(1);
    assertThat(c.metric("bamel_leader", "component", "node-controller")).isEqualTo(1);
    assertThat(c.metric("bamel_reconcile_total", "result", "ok")).isPositive();
  }

  @Test
  void aDisruptionBudgetBlocksTheDrainUntilItAllows() throws Exception {
    openKubernetesSite();
    String id = site.addNodes(1, "batch", DesiredPower.ON).get(0);
    site.controller("a");
    site.awaitState(List.of(id), READY, WAIT);
    addWorkload(id, "db-0", Map.of("app", "db"));
    addWorkload(id, "web-0", Map.of("app", "web"));
    site.kube.resource(KubeObjects.disruptionBudget("db-budget", Map.of("app", "db"), 1)).create();

    site.desire(id, DesiredPower.OFF);
    site.awaitState(List.of(id), ERROR, WAIT);
    var status = site.node(id).status();
    assertThat(status.lastError())
        .contains("drain did not finish")
        .contains("apps/db-0")
        .contains("PodDisruptionBudget");
    assertThat(status.lastError()).doesNotContain("apps/web-0");
    assertThat(site.kube.nodes().withName(id).get().getSpec().getUnschedulable())
        .as("the node stays cordoned")
        .isTrue();
    assertThat(site.fleet.system(id).powerState()).isEqualTo(BmcPowerState.ON);
    assertThat(site.resets(id, "GracefulShutdown") + site.resets(id, "ForceOff")).isZero();
    assertThat(site.kube.pods().inNamespace("apps").withName("web-0").get()).isNull();

    // the budget goes: the error clears by itself and the node is switched off
    site.kube
        .policy()
        .v1()
        .podDisruptionBudget()
        .inNamespace("apps")
        .withName("db-budget")
        .delete();
    site.awaitState(List.of(id), OFF, WAIT);
    assertThat(site.kube.pods().inNamespace("apps").withName("db-0").get()).isNull();
  }

  @Test
  void maintenanceStopsEveryPowerAction() throws Exception {
    openSite();
    List<String> ids = site.addNodes(2, "batch", DesiredPower.ON);
    String kept = ids.get(0);
    String idle = ids.get(1);
    ControllerInstance c = site.controller("a");
    site.awaitState(List.of(kept), READY, WAIT);
    site.update(kept, s -> s.toBuilder().maintenance(true).build());
    site.update(idle, s -> s.toBuilder().maintenance(true).desiredPower(DesiredPower.OFF).build());
    site.awaitState(List.of(idle), READY, WAIT);

    site.desire(kept, DesiredPower.OFF);
    site.fleet.system(idle).forcePowerState(BmcPowerState.OFF);
    Thread.sleep(3 * TestSite.CONFIG.syncInterval().toMillis() / 2);
    assertThat(site.state(kept)).isEqualTo(READY);
    assertThat(site.fleet.system(kept).powerState()).isEqualTo(BmcPowerState.ON);
    assertThat(site.resets(kept, "GracefulShutdown") + site.resets(kept, "ForceOff")).isZero();
    assertThat(site.resets(idle, "On")).as("no power-on while in maintenance").isEqualTo(1);
    await().atMost(WAIT).until(() -> site.node(idle).status().observedPower() == ObservedPower.OFF);

    site.update(kept, s -> s.toBuilder().maintenance(false).build());
    site.awaitState(List.of(kept), OFF, WAIT);
    assertThat(c.metric("bamel_nodes")).isEqualTo(2);
  }

  @Test
  void driftIsCorrectedBothWays() throws Exception {
    openKubernetesSite();
    List<String> ids = site.addNodes(2, "batch", DesiredPower.ON);
    String up = ids.get(0);
    String down = ids.get(1);
    ControllerInstance c = site.controller("a");
    site.desire(down, DesiredPower.OFF);
    site.awaitState(List.of(up), READY, WAIT);
    site.awaitState(List.of(down), OFF, WAIT);

    // switched off behind bamel's back: found at the next sync and switched on again
    site.fleet.system(up).forcePowerState(BmcPowerState.OFF);
    await().atMost(WAIT).until(() -> site.resets(up, "On") == 2);
    site.awaitState(List.of(up), READY, WAIT);
    assertThat(site.events(up)).anyMatch(e -> "unexpected power off".equals(e.reason()));
    assertThat(c.metric("bamel_power_drift_total", "direction", "off")).isEqualTo(1);

    // switched on behind bamel's back, with a workload scheduled on it: error, never switched off
    site.fleet.system(down).forcePowerState(BmcPowerState.ON);
    await().atMost(WAIT).until(() -> site.kube.nodes().withName(down).get() != null);
    addWorkload(down, "stray-1", Map.of("app", "stray"));
    site.awaitState(List.of(down), ERROR, WAIT);
    assertThat(site.node(down).status().lastError()).contains("apps/stray-1");
    assertThat(site.fleet.system(down).powerState()).isEqualTo(BmcPowerState.ON);
    // counted just after the status and event are written (and the Kubernetes Event posted)
    await().atMost(WAIT).until(() -> c.metric("bamel_power_drift_total", "direction", "on") >= 1);
    assertThat(c.metric("bamel_power_drift_total", "direction", "on")).isEqualTo(1);

    // the workload goes: the node is switched off
    site.kube.pods().inNamespace("apps").withName("stray-1").delete();
    site.awaitState(List.of(down), OFF, WAIT);
    assertThat(site.fleet.system(down).powerState()).isEqualTo(BmcPowerState.OFF);
  }

  @Test
  void aNodeThatNeverJoinsIsPowerCycledOnceThenErrs() throws Exception {
    openKubernetesSite();
    site.kubelets.pause(true);
    String id = site.addNodes(1, "batch", DesiredPower.ON).get(0);
    site.controller("a");
    site.awaitState(List.of(id), ERROR, WAIT);
    assertThat(site.resets(id, "PowerCycle") + site.resets(id, "ForceRestart")).isEqualTo(1);
    assertThat(site.node(id).status().lastError()).contains("after a power cycle");
    site.kubelets.pause(false);
    site.awaitState(List.of(id), READY, WAIT);
  }

  @Test
  void aPowerCycleThatPassesThroughOffIsWaitedOutNotTakenForDrift() throws Exception {
    openKubernetesSite();
    site.kubelets.pause(true);
    String id = site.addNodes(1, "batch", DesiredPower.ON).get(0);
    OffAfterCycleDriver[] cycling = new OffAfterCycleDriver[1];
    CountingDriver[] calls = new CountingDriver[1];
    ControllerInstance c =
        site.controller(
            "a",
            TestSite.CONFIG,
            TestSite.drivers(
                d ->
                    calls[0] =
                        new CountingDriver(
                            cycling[0] = new OffAfterCycleDriver(d, Duration.ofMillis(1_500)))));
    // the join times out, the node is cycled, the BMC reports off for 1.5 s, then on; the node
    // still does not join: error after the second join timeout
    site.awaitState(List.of(id), ERROR, WAIT);
    assertThat(site.node(id).status().lastError()).contains("after a power cycle");
    assertThat(cycling[0].offReported()).as("the controller saw the cycle's off").isPositive();
    assertThat(calls[0].calls(site.address(id), PowerOperation.CYCLE)).isOne();
    assertThat(calls[0].calls(site.address(id), PowerOperation.ON))
        .as("no power-on after bamel's own cycle")
        .isOne();
    assertThat(c.metric("bamel_power_drift_total", "direction", "off")).isZero();
    assertThat(site.events(id)).noneMatch(e -> "unexpected power off".equals(e.reason()));
    assertThat(site.events(id).stream().filter(e -> e.to() == POWERING_ON).count()).isOne();

    site.kubelets.pause(false);
    site.awaitState(List.of(id), READY, WAIT);
  }

  @Test
  void theKubernetesNodeIsFoundByKubernetesNodeNameThenNameThenId() throws Exception {
    openKubernetesSite();
    List<String> ids = site.addNodes(3, "batch", DesiredPower.OFF);
    String byKubeName = ids.get(0);
    String byName = ids.get(1);
    String byId = ids.get(2);
    // each kubelet registers under the name only one of the rules finds
    site.kubelets.nodeName(byKubeName, "k8s-a");
    site.update(
        byKubeName, s -> s.toBuilder().name("inventory-a").kubernetesNodeName("k8s-a").build());
    site.kubelets.nodeName(byName, "name-b");
    site.update(byName, s -> s.toBuilder().name("name-b").kubernetesNodeName(" ").build());
    site.update(byId, s -> s.toBuilder().name(null).build());
    site.controller("a");
    site.awaitState(ids, OFF, WAIT);

    ids.forEach(id -> site.desire(id, DesiredPower.ON));
    site.awaitState(ids, READY, WAIT);
    assertThat(site.node(byKubeName).status().kubernetesNode()).isEqualTo("k8s-a");
    assertThat(site.node(byName).status().kubernetesNode()).isEqualTo("name-b");
    assertThat(site.node(byId).status().kubernetesNode()).isEqualTo(byId);
    for (String name : List.of("k8s-a", "name-b", byId)) {
      assertThat(site.kube.nodes().withName(name).get().getMetadata().getLabels())
          .as("admitted: " + name)
          .containsEntry(Cluster.POOL_LABEL, "batch");
    }
    assertThat(site.kube.nodes().withName("inventory-a").get()).isNull();
  }

  @Test
  void reconcileDurationsAndTheQueueDepthAreMeasured() throws Exception {
    openSite();
    List<String> ids = site.addNodes(20, "batch", DesiredPower.OFF);
    ids.forEach(id -> site.fleet.system(id).faults().latency(Duration.ofMillis(50)));
    // one worker, no periodic sync: leadership queues all 20 at once
    ControllerInstance c =
        site.controller(
            "a",
            TestSite.CONFIG
                .withConcurrency(1, 1)
                .withIntervals(Duration.ofHours(1), Duration.ofMillis(100)),
            TestSite.drivers(d -> d));
    double[] peak = new double[1];
    await()
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(5))
        .until(
            () -> {
              peak[0] = Math.max(peak[0], c.metric("bamel_workqueue_depth"));
              return peak[0] >= 10;
            });
    site.awaitState(ids, OFF, WAIT);
    await().atMost(WAIT).until(() -> c.metric("bamel_workqueue_depth") == 0);

    // one observation per reconciliation, once none is running (a status write's own watch event
    // may start one after the queue has emptied; read while it runs, the two can differ by it)
    double[] first =
        await()
            .atMost(WAIT)
            .until(
                () -> c.histogram("bamel_reconcile_duration_seconds"),
                h -> h[0] == c.metric("bamel_reconcile_total"));
    assertThat(first[0]).isGreaterThanOrEqualTo(20);
    // each of them read a BMC that answers after 50 ms
    assertThat(first[1]).isGreaterThanOrEqualTo(20 * 0.05);

    site.desire(ids.get(0), DesiredPower.ON);
    site.awaitState(List.of(ids.get(0)), READY, WAIT);
    // again once none is running
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              double[] then = c.histogram("bamel_reconcile_duration_seconds");
              assertThat(then[0])
                  .isGreaterThan(first[0])
                  .isEqualTo(c.metric("bamel_reconcile_total"));
              assertThat(then[1]).isGreaterThan(first[1]);
            });
  }

  @Test
  void decisionsFollowTheInjectedClockAndPoolTimeouts() throws Exception {
    // real (long) default timeouts; the test moves the controller's clock instead of waiting
    openKubernetesSite();
    site.kubelets.pause(true);
    String id = site.addNodes(1, "slow", DesiredPower.ON).get(0);
    OffsetClock clock = new OffsetClock();
    site.controller(
        "a",
        TestSite.CONFIG.withTimeouts(io.bamel.inventory.model.NodeTimeouts.DEFAULTS),
        TestSite.drivers(d -> d),
        clock);
    site.awaitState(List.of(id), JOINING, WAIT);
    clock.advance(Duration.ofMinutes(19));
    Thread.sleep(1_000);
    assertThat(site.resets(id, "PowerCycle") + site.resets(id, "ForceRestart")).isZero();

    // a pool timeout of 10 min overrides the global 20 min, and the pool's members are looked at
    site.inventory.putPoolConfig(
        "slow",
        PoolConfig.builder()
            .timeouts(
                io.bamel.inventory.model.NodeTimeouts.of(null, Duration.ofMinutes(10), null, null))
            .build(),
        BatchItem.ANY);
    await()
        .atMost(WAIT)
        .until(() -> site.resets(id, "PowerCycle") + site.resets(id, "ForceRestart") == 1);
    assertThat(site.events(id)).anyMatch(e -> "power-cycle".equals(e.action()));

    clock.advance(Duration.ofMinutes(11));
    // the BMC may still be cycling: then error lasts one retry backoff (100 ms) before the node
    // is seen powering on again, so it is looked for more often than that
    site.awaitState(List.of(id), ERROR, WAIT, Duration.ofMillis(5));
    assertThat(site.node(id).status().lastError()).contains("10m after a power cycle");
  }
}
