package io.bamel.node;

import static io.bamel.inventory.model.NodeState.JOINING;
import static io.bamel.inventory.model.NodeState.OFF;
import static io.bamel.inventory.model.NodeState.POWERING_ON;
import static io.bamel.inventory.model.NodeState.READY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.PowerAction;
import io.bamel.inventory.testing.StoreEdits;
import io.bamel.kube.testing.KubeObjects;
import io.bamel.power.BmcPowerState;
import io.bamel.power.PowerOperation;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The node controller when things break: the controller dies halfway, etcd restarts, the Kubernetes
 * API goes away, BMCs fail, two controllers run at once.
 */
class NodeControllerResilienceIT extends TestSiteTests {

  /** Longer than the shared wait: fifty nodes, an etcd restart, failing BMCs. */
  static final Duration WAIT = Duration.ofSeconds(60);

  @Test
  void fiftyNodesConvergeAcrossAnAbruptControllerRestartWithOnePowerOnEach() throws Exception {
    openSite();
    List<String> ids = site.addNodes(50, "batch", DesiredPower.OFF);
    TestSite.Wrapped<CountingDriver> first =
        site.counted("first", TestSite.CONFIG.withConcurrency(4, 4));
    CountingDriver firstCalls = first.driver();
    site.awaitState(ids, OFF, WAIT);
    // the process dies with every worker between a written-ahead power-on and its BMC call (the
    // hardest case for the write-ahead), and no call half-way to a BMC: 25 power-ons go through,
    // the four workers' next ones are held
    firstCalls.holdAfter(25, false);
    ids.forEach(id -> site.desire(id, DesiredPower.ON));
    await().atMost(WAIT).until(() -> firstCalls.waiting() == 4);
    assertThat(firstCalls.awaitIdle(WAIT)).isTrue();
    first.controller().crash();
    List<String> cut = ids.stream().filter(id -> site.state(id) == POWERING_ON).toList();
    List<String> cutButNotSent =
        cut.stream().filter(id -> calls(firstCalls, id, PowerOperation.ON) == 0).toList();
    assertThat(cutButNotSent).as("written ahead, never sent").hasSize(4);
    Map<String, Instant> writtenAhead = new HashMap<>();
    cutButNotSent.forEach(id -> writtenAhead.put(id, site.node(id).status().powerActionTime()));
    long onAtCrash = ids.stream().filter(id -> site.accepted(id) > 0).count();
    assertThat(onAtCrash).isLessThan(50);

    TestSite.Wrapped<CountingDriver> second = site.counted("second", TestSite.CONFIG);
    CountingDriver secondCalls = second.driver();
    site.awaitState(ids, READY, WAIT);
    for (String id : ids) {
      int before = calls(firstCalls, id, PowerOperation.ON);
      int after = calls(secondCalls, id, PowerOperation.ON);
      assertThat(before + after).as("power-on calls made for " + id).isEqualTo(1);
      assertThat(site.resets(id, "On")).as("power-ons accepted by " + id).isEqualTo(1);
    }
    // a node written ahead but never sent is checked at the BMC, and sent again only after the
    // power-on timeout (then error, whose retry powers on)
    for (String id : cutButNotSent) {
      Instant sent = secondCalls.firstCall(site.address(id), PowerOperation.ON);
      assertThat(sent).isAfterOrEqualTo(writtenAhead.get(id).plus(TestSite.TIMEOUTS.powerOn()));
      assertThat(site.events(id)).anyMatch(e -> e.to() == NodeState.ERROR);
    }
    assertThat(second.controller().election.isLeader()).isTrue();
  }

  int calls(CountingDriver driver, String id, PowerOperation op) {
    return driver.calls(site.address(id), op);
  }

  /**
   * Two nodes a controller died on after writing their power-ons ahead, at {@code at}: {@code
   * accepted}'s call reached its BMC (on now), {@code lost}'s never left.
   */
  record WrittenAhead(String accepted, String lost, Instant at) {}

  /**
   * Opens the site with the two nodes of a {@link WrittenAhead}: each powering on, the timer just
   * started, {@code observed} as last seen.
   */
  WrittenAhead writtenAheadPowerOns(io.bamel.inventory.model.ObservedPower observed) {
    openSite();
    List<String> ids = site.addNodes(2, "batch", DesiredPower.ON);
    site.fleet.system(ids.get(0)).forcePowerState(BmcPowerState.ON);
    Instant now = Instant.now();
    for (String id : ids) {
      StoreEdits.updateStatus(
          site.inventory,
          id,
          s ->
              io.bamel.inventory.model.NodeStatus.initial(now).toBuilder()
                  .state(POWERING_ON)
                  .observedPower(observed)
                  .lastPowerAction(PowerAction.POWER_ON)
                  .powerActionTime(now)
                  .timerStarted(now)
                  .timerElapsed(Duration.ZERO)
                  .build(),
          null,
          null);
    }
    return new WrittenAhead(ids.get(0), ids.get(1), now);
  }

  @Test
  void anEtcdRestartMidRunIsRiddenOut() throws Exception {
    openSite();
    List<String> ids = site.addNodes(10, "batch", DesiredPower.OFF);
    TestSite.Wrapped<CountingDriver> a = site.counted("a", TestSite.CONFIG.withConcurrency(2, 2));
    site.awaitState(ids, OFF, WAIT);
    ids.forEach(id -> site.desire(id, DesiredPower.ON));
    await().atMost(WAIT).until(() -> ids.stream().anyMatch(id -> site.accepted(id) > 0));
    ETCD.cluster().bounce(0);
    site.awaitState(ids, READY, WAIT);
    ids.forEach(id -> site.desire(id, DesiredPower.OFF));
    site.awaitState(ids, OFF, WAIT);
    await().atMost(WAIT).until(a.controller().election::isLeader);
    for (String id : ids) {
      assertThat(site.resets(id, "On")).isEqualTo(1);
      assertThat(calls(a.driver(), id, PowerOperation.ON)).as("power-on calls").isEqualTo(1);
      assertThat(calls(a.driver(), id, PowerOperation.OFF)).as("power-off calls").isEqualTo(1);
    }
  }

  @Test
  void withoutTheKubernetesApiPowerOnGoesOnAndDrainsWait() throws Exception {
    openKubernetesSite();
    List<String> ids = site.addNodes(2, "batch", DesiredPower.ON);
    String running = ids.get(0);
    String starting = ids.get(1);
    site.desire(starting, DesiredPower.OFF);
    // The pod exists before the controller starts, so its informer's first listing holds it (a pod
    // created just before an outage can be unseen: docs/node-controller.md, "Known gap").
    site.kube
        .pods()
        .resource(KubeObjects.pod("web-0").onNode(running).withoutContainers().build())
        .create();
    site.controller("a");
    site.awaitState(List.of(running), READY, WAIT);
    site.awaitState(List.of(starting), OFF, WAIT);

    site.api.unreachable(true);
    site.desire(starting, DesiredPower.ON);
    site.desire(running, DesiredPower.OFF);
    await().atMost(WAIT).until(() -> site.state(starting) == JOINING);
    assertThat(site.fleet.system(starting).powerState()).isEqualTo(BmcPowerState.ON);
    // longer than the join and drain timeouts: they are paused, nothing is cycled or drained
    Thread.sleep(TestSite.TIMEOUTS.join().plusSeconds(2).toMillis());
    assertThat(site.state(starting)).isEqualTo(JOINING);
    assertThat(site.state(running)).isEqualTo(READY);
    assertThat(site.fleet.system(running).powerState()).isEqualTo(BmcPowerState.ON);
    assertThat(site.resets(starting, "PowerCycle") + site.resets(starting, "ForceRestart"))
        .isZero();
    assertThat(site.api.evictions()).isZero();

    site.api.unreachable(false);
    site.awaitState(List.of(starting), READY, WAIT);
    site.awaitState(List.of(running), OFF, WAIT);
    assertThat(site.api.evictions()).isEqualTo(1);
  }

  @Test
  void thirtyPercentOfBmcCallsFailingStillConverges() throws Exception {
    openSite();
    List<String> ids = site.addNodes(20, "batch", DesiredPower.OFF);
    AtomicReference<FlakyDriver> flaky = new AtomicReference<>();
    CountingDriver[] sent = new CountingDriver[1]; // between the failures and the real driver
    ControllerInstance c =
        site.controller(
            "a",
            TestSite.CONFIG,
            TestSite.drivers(
                d -> {
                  flaky.set(new FlakyDriver(sent[0] = new CountingDriver(d), 0.3));
                  return flaky.get();
                }));
    site.awaitState(ids, OFF, WAIT);
    ids.forEach(id -> site.desire(id, DesiredPower.ON));
    site.awaitState(ids, READY, WAIT);
    ids.forEach(id -> site.desire(id, DesiredPower.OFF));
    site.awaitState(ids, OFF, WAIT);
    for (String id : ids) {
      assertThat(site.fleet.system(id).powerState()).isEqualTo(BmcPowerState.OFF);
      // a failed call had no effect, so each node needed exactly one that went through
      assertThat(calls(sent[0], id, PowerOperation.ON)).as("power-ons sent").isEqualTo(1);
      assertThat(calls(sent[0], id, PowerOperation.OFF)).as("power-offs sent").isEqualTo(1);
      assertThat(site.resets(id, "On")).isEqualTo(1);
    }
    assertThat(flaky.get().failures()).isGreaterThan(10);
    assertThat(c.metric("bamel_reconcile_total", "result", "error")).isPositive();
    assertThat(ids.stream().flatMap(id -> site.events(id).stream()))
        .anyMatch(e -> "failed".equals(e.result()));
  }

  @Test
  void ofTwoControllersOnlyTheLeaderActs() throws Exception {
    openSite();
    List<String> ids = site.addNodes(20, "batch", DesiredPower.OFF);
    TestSite.Wrapped<CountingDriver> countedA = site.counted("a", TestSite.CONFIG);
    TestSite.Wrapped<CountingDriver> countedB = site.counted("b", TestSite.CONFIG);
    ControllerInstance a = countedA.controller();
    ControllerInstance b = countedB.controller();
    site.awaitState(ids, OFF, WAIT);
    ids.forEach(id -> site.desire(id, DesiredPower.ON));
    site.awaitState(ids, READY, WAIT);
    ids.forEach(id -> site.desire(id, DesiredPower.OFF));
    site.awaitState(ids, OFF, WAIT);

    assertThat(a.election.isLeader() ^ b.election.isLeader()).isTrue();
    ControllerInstance follower = a.election.isLeader() ? b : a;
    CountingDriver leaderCalls = (a.election.isLeader() ? countedA : countedB).driver();
    CountingDriver followerCalls = (a.election.isLeader() ? countedB : countedA).driver();
    assertThat(follower.metric("bamel_reconcile_total"))
        .as("the standby never reconciled")
        .isZero();
    assertThat(followerCalls.total()).as("the standby never called a BMC").isZero();
    assertThat(follower.metric("bamel_leader", "component", "node-controller")).isZero();
    for (String id : ids) {
      assertThat(calls(leaderCalls, id, PowerOperation.ON)).isEqualTo(1);
      assertThat(calls(leaderCalls, id, PowerOperation.OFF)).isEqualTo(1);
      assertThat(site.resets(id, "On")).isEqualTo(1);
      assertThat(site.resets(id, "GracefulShutdown")).isEqualTo(1);
      assertThat(site.fleet.system(id).count(io.bamel.power.sim.SimOperation.RESET_REFUSED))
          .isZero();
    }
  }

  @Test
  void aWrittenAheadPowerOnIsCheckedAtTheBmcAndNotRepeatedBeforeItsTimeout() throws Exception {
    WrittenAhead ahead = writtenAheadPowerOns(io.bamel.inventory.model.ObservedPower.UNKNOWN);
    CountingDriver counted = site.counted("a", TestSite.CONFIG).driver();
    site.awaitState(List.of(ahead.accepted()), READY, WAIT);
    assertThat(calls(counted, ahead.accepted(), PowerOperation.ON))
        .as("checked, not sent again")
        .isZero();
    assertThat(site.resets(ahead.accepted(), "On")).isZero();
    // the other stays powering-on until the power-on timeout, then errs and is retried once
    Thread.sleep(TestSite.TIMEOUTS.powerOn().toMillis() / 2);
    assertThat(site.state(ahead.lost())).isEqualTo(POWERING_ON);
    assertThat(calls(counted, ahead.lost(), PowerOperation.ON)).isZero();
    site.awaitState(List.of(ahead.lost()), READY, WAIT);
    assertThat(calls(counted, ahead.lost(), PowerOperation.ON)).isEqualTo(1);
    assertThat(counted.firstCall(site.address(ahead.lost()), PowerOperation.ON))
        .isAfterOrEqualTo(ahead.at().plus(TestSite.TIMEOUTS.powerOn()));
    assertThat(site.resets(ahead.lost(), "On")).isEqualTo(1);
    assertThat(site.events(ahead.lost()))
        .anyMatch(e -> e.to() == io.bamel.inventory.model.NodeState.ERROR);
  }

  @Test
  void aWrittenAheadPowerOnTheBmcNeverGotIsSentAgainAfterTheConfirmationWindow() throws Exception {
    WrittenAhead ahead = writtenAheadPowerOns(io.bamel.inventory.model.ObservedPower.OFF);
    // a power-on timeout far away, a confirmation window of 1 s
    io.bamel.inventory.model.NodeTimeouts timeouts =
        io.bamel.inventory.model.NodeTimeouts.of(
                Duration.ofSeconds(30),
                TestSite.TIMEOUTS.join(),
                TestSite.TIMEOUTS.drain(),
                TestSite.TIMEOUTS.powerOff())
            .withPowerOnConfirm(Duration.ofSeconds(1));
    CountingDriver counted = site.counted("a", TestSite.CONFIG.withTimeouts(timeouts)).driver();
    site.awaitState(List.of(ahead.accepted(), ahead.lost()), READY, Duration.ofSeconds(15));
    assertThat(calls(counted, ahead.accepted(), PowerOperation.ON)).as("on: never sent").isZero();
    assertThat(calls(counted, ahead.lost(), PowerOperation.ON)).as("sent again, once").isEqualTo(1);
    assertThat(counted.firstCall(site.address(ahead.lost()), PowerOperation.ON))
        .isAfterOrEqualTo(ahead.at().plusSeconds(1))
        .isBefore(ahead.at().plus(Duration.ofSeconds(30)));
    assertThat(site.resets(ahead.lost(), "On")).isEqualTo(1);
    assertThat(site.events(ahead.lost()))
        .noneMatch(e -> e.to() == NodeState.ERROR)
        .anyMatch(e -> e.reason() != null && e.reason().contains("sending it again"));
  }
}
