package io.bamel.pool.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeTimeouts;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PowerAction;
import io.bamel.node.NodeControllerConfig;
import io.bamel.pool.Resources;
import io.bamel.power.BmcPowerState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A simulated server's path through its lifecycle is the node state machine's, on the simulator's
 * clock: the world (BMC, kubelet, pods) only answers, and every transition, retry, timeout and
 * error below is the real {@code NodeStateMachine}'s rule, not the simulator's. One server, a boot
 * of 240 s (POST 120 s), looked at every 10 s step.
 */
class SimNodeControllerTest {

  private static final long STEP = 10;
  private static final double GIB = 1024.0 * 1024 * 1024;

  private SimServer server;
  private SimNodeController nodes;
  private final List<SimPod> evicted = new ArrayList<>();

  /** Each state the server entered, at the first step it was seen in it. */
  private final Map<NodeState, Long> entered = new LinkedHashMap<>();

  private void fleet(PoolConfig config, long terminationSeconds) {
    FleetPool pool = new FleetPool("cpu", 1, 64, 512, 0, 207, 591, new BootTime(240, 240), config);
    Fleet fleet = new Fleet(List.of(pool));
    List<SimServer> servers = fleet.build(1);
    server = servers.get(0);
    nodes =
        new SimNodeController(
            fleet, servers, 0, 60, terminationSeconds, NodeControllerConfig.DEFAULTS);
  }

  private void fleet() {
    fleet(PoolConfig.builder().build(), 0);
  }

  private void switchOn(long now) {
    server.desiredOn(true);
    evicted.addAll(nodes.specChanged(server, now));
    entered.putIfAbsent(server.state(), now);
  }

  private void switchOff(long now) {
    server.desiredOn(false);
    evicted.addAll(nodes.specChanged(server, now));
    entered.putIfAbsent(server.state(), now);
  }

  /** Runs the steps after {@code from} up to {@code to}. */
  private void run(long from, long to) {
    for (long now = from + STEP; now <= to; now += STEP) {
      evicted.addAll(nodes.tick(now));
      entered.putIfAbsent(server.state(), now);
    }
  }

  @Test
  void aPowerOnGoesThroughPoweringOnAndJoiningToReadyAsTheBmcAndKubeletAnswer() {
    fleet();
    switchOn(0);
    assertThat(server.state()).isEqualTo(NodeState.POWERING_ON);
    assertThat(server.status().lastPowerAction()).isEqualTo(PowerAction.POWER_ON);
    assertThat(server.powerOns()).isEqualTo(1);

    run(0, 400);

    // the BMC reports on after the POST (120 s), the kubelet is Ready at 240 s: each is seen at
    // the next look, and only then does the state machine move on
    assertThat(entered)
        .containsExactly(
            Map.entry(NodeState.POWERING_ON, 0L),
            Map.entry(NodeState.JOINING, 120L),
            Map.entry(NodeState.READY, 240L));
    assertThat(server.status().joinTime()).hasToString("1970-01-01T00:04:00Z");
    assertThat(server.schedulable()).as("admitted: labelled with its pool, uncordoned").isTrue();
    assertThat(server.powerOns()).isEqualTo(1);
  }

  @Test
  void aPowerOnTheBmcNeverConfirmsIsSentOnceMoreThenTimesOutIntoErrorAndIsRetried() {
    fleet();
    server.machine().ignorePowerOn();
    switchOn(0);

    run(0, 50);
    assertThat(server.powerOns()).isEqualTo(1);
    run(50, 60);
    assertThat(server.powerOns())
        .as("still off after the 60 s confirmation window: sent again, once")
        .isEqualTo(2);
    run(60, 300);
    assertThat(server.state()).isEqualTo(NodeState.POWERING_ON);
    assertThat(server.powerOns()).isEqualTo(2);

    run(300, 310);
    assertThat(server.state()).as("past the 5 min power-on timeout").isEqualTo(NodeState.ERROR);
    assertThat(server.status().lastError())
        .isEqualTo("BMC still reports off 5m after power-on was requested");
    assertThat(server.status().errorCount()).isEqualTo(1);
    assertThat(server.powered()).isFalse();

    run(310, 320);
    assertThat(server.state())
        .as("error leaves by itself: retried after the backoff")
        .isEqualTo(NodeState.POWERING_ON);
    assertThat(server.powerOns()).isEqualTo(3);
    assertThat(server.comingUp()).isTrue();
  }

  @Test
  void aPoolsConfigTimeoutsDecide() {
    fleet(
        PoolConfig.builder()
            .timeouts(
                NodeTimeouts.of(
                    Duration.ofMinutes(2),
                    Duration.ofMinutes(20),
                    Duration.ofMinutes(10),
                    Duration.ofMinutes(5)))
            .build(),
        0);
    server.machine().ignorePowerOn();
    switchOn(0);

    run(0, 130);

    assertThat(entered).containsEntry(NodeState.ERROR, 130L);
    assertThat(server.status().lastError())
        .isEqualTo("BMC still reports off 2m after power-on was requested");
  }

  @Test
  void aDrainWaitsForItsPodsToLeaveBeforeThePowerOff() {
    fleet(PoolConfig.builder().build(), 120);
    server.desiredOn(true);
    server.state(NodeState.READY, -3600);
    SimPod a = pod("a");
    SimPod b = pod("b");

    switchOff(0);

    assertThat(server.state()).isEqualTo(NodeState.DRAINING);
    assertThat(evicted).as("both evicted at the drain").containsExactly(a, b);
    assertThat(server.pods()).isEmpty();
    assertThat(server.schedulable()).as("cordoned").isFalse();

    run(0, 110);
    assertThat(server.state())
        .as("the evicted pods are still terminating on it")
        .isEqualTo(NodeState.DRAINING);
    assertThat(server.machine().power()).isEqualTo(BmcPowerState.ON);

    run(110, 120);
    assertThat(server.state()).as("gone at 120 s: powered off").isEqualTo(NodeState.POWERING_OFF);
    assertThat(server.status().lastPowerAction()).isEqualTo(PowerAction.POWER_OFF);

    run(120, 180);
    assertThat(entered).containsEntry(NodeState.OFF, 180L);
    assertThat(server.powered()).isFalse();
  }

  @Test
  void aDrainWhosePodsNeverLeaveEndsInTheDrainTimeoutsErrorAndFinishesWhenTheyDo() {
    fleet(PoolConfig.builder().build(), 1200);
    server.desiredOn(true);
    server.state(NodeState.READY, -3600);
    pod("stuck");

    switchOff(0);
    run(0, 600);
    assertThat(server.state()).isEqualTo(NodeState.DRAINING);

    run(600, 610);
    assertThat(server.state()).as("past the 10 min drain timeout").isEqualTo(NodeState.ERROR);
    assertThat(server.status().lastError())
        .startsWith("drain did not finish within 10m; blocking pods: sim/stuck");
    assertThat(server.powered()).as("never switched off with a pod on it").isTrue();

    run(610, 1190);
    assertThat(server.state()).isEqualTo(NodeState.ERROR);

    run(1190, 1200);
    assertThat(server.state())
        .as("no workload left: the state machine powers it off")
        .isEqualTo(NodeState.POWERING_OFF);
  }

  @Test
  void backoffDoublesFromTheBaseUpToTheCap() {
    fleet();
    assertThat(nodes.backoff(1)).isEqualTo(Duration.ofSeconds(1));
    assertThat(nodes.backoff(4)).isEqualTo(Duration.ofSeconds(8));
    assertThat(nodes.backoff(9)).isEqualTo(Duration.ofSeconds(256));
    assertThat(nodes.backoff(10)).isEqualTo(Duration.ofMinutes(5));
    assertThat(nodes.backoff(1000)).isEqualTo(Duration.ofMinutes(5));
  }

  /** A pod of 8 cores bound to the server at -60 s. */
  private SimPod pod(String name) {
    SimPod pod = new SimPod(name, Resources.of("cpu", 8, "memory", 32 * GIB), "cpu", -60, 86400);
    pod.bind(server, -60, true);
    server.add(pod, -60);
    return pod;
  }
}
