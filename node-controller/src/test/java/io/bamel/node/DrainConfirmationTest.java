package io.bamel.node;

import static io.bamel.inventory.model.NodeState.DRAINING;
import static io.bamel.inventory.model.NodeState.ERROR;
import static io.bamel.inventory.model.NodeState.OFF;
import static io.bamel.inventory.model.NodeState.POWERING_OFF;
import static io.bamel.inventory.model.PowerAction.POWER_OFF;
import static io.bamel.node.NodeStateMachineTest.JUST;
import static io.bamel.node.NodeStateMachineTest.LATE_DRAIN;
import static io.bamel.node.NodeStateMachineTest.WANT_OFF;
import static io.bamel.node.NodeStateMachineTest.kubeNode;
import static io.bamel.node.NodeStateMachineTest.look;
import static io.bamel.node.NodeStateMachineTest.pod;
import static io.bamel.node.NodeStateMachineTest.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.PodRef;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.node.Decision.Drift;
import io.bamel.power.BmcPowerState;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * "No workload left" is concluded from the API server's own list, never from the watched cache
 * alone: each way a node is switched off for want of workloads (the end of a drain, {@code error}
 * with desired off, a node found on while desired off) first asks for the list ({@link
 * Action#LIST_PODS}) when the cache shows none, and decides on what the list says. Pure: the
 * decisions of {@link NodeStateMachine}; the list itself is {@code DrainConfirmationIT}'s.
 */
class DrainConfirmationTest {

  static final KubeNode CORDONED = kubeNode(true, true, false);
  static final KubePod WEB = pod("web", "ReplicaSet", false);

  /** The node as the watched cache shows it (what {@link NodeKube#observe} gives). */
  static KubeView cached(KubeNode node, List<KubePod> pods) {
    return new KubeView(KubeView.Mode.PRESENT, node, pods, Map.of(), null, true);
  }

  static Decision decide(NodeStatus status, BmcPowerState power, KubeView kube) {
    return look(status).want(WANT_OFF).power(power).kube(kube).decide();
  }

  @Test
  void aDrainTheCacheShowsDoneAsksTheServerFirst() {
    NodeStatus draining = status(DRAINING, JUST);
    Decision d = decide(draining, BmcPowerState.ON, cached(CORDONED, List.of()));

    assertThat(d.action()).isEqualTo(Action.LIST_PODS);
    assertThat(d.next().state()).as("nothing switched off yet").isEqualTo(DRAINING);
    assertThat(d.event()).isNull();
  }

  @Test
  void theServerListingNoWorkloadEndsTheDrain() {
    NodeStatus draining = status(DRAINING, JUST);
    KubeView listed = cached(CORDONED, List.of()).withServerPods(List.of());
    Decision d = decide(draining, BmcPowerState.ON, listed);

    assertThat(listed.cached()).isFalse();
    assertThat(d.next().state()).isEqualTo(POWERING_OFF);
    assertThat(d.action().power()).isEqualTo(POWER_OFF);
    assertThat(d.event().reason()).isEqualTo("drained");
  }

  @Test
  void podsTheDrainDoesNotMoveDoNotHoldItUp_asInTheCache() {
    KubePod daemon = pod("ds", "DaemonSet", false);
    KubePod finished =
        KubePod.builder().from(pod("job-1", "Job", false)).phase("Succeeded").build();
    KubePod mirror =
        KubePod.builder()
            .from(pod("etcd-n1", "Node", false))
            .annotations(Map.of(Cluster.MIRROR_POD, "abc"))
            .build();
    List<KubePod> stay = List.of(daemon, finished, mirror);

    Decision fromCache = decide(status(DRAINING, JUST), BmcPowerState.ON, cached(CORDONED, stay));
    Decision fromServer =
        decide(
            status(DRAINING, JUST),
            BmcPowerState.ON,
            cached(CORDONED, List.of()).withServerPods(stay));

    assertThat(fromCache.action()).as("the cache shows no workload").isEqualTo(Action.LIST_PODS);
    assertThat(fromServer.next().state()).isEqualTo(POWERING_OFF);
  }

  @Test
  void aPodOnlyTheServerListsIsEvictedAndTheDrainGoesOn() {
    NodeStatus draining = status(DRAINING, JUST);
    Decision d =
        decide(
            draining, BmcPowerState.ON, cached(CORDONED, List.of()).withServerPods(List.of(WEB)));

    assertThat(d.next().state()).isEqualTo(DRAINING);
    assertThat(d.action().kind()).isEqualTo(Action.Kind.DRAIN);
    assertThat(d.action().evict()).containsExactly(new PodRef("apps", "web"));
  }

  @Test
  void aPodOnlyTheServerListsEndsTheDrainInErrorAtTheTimeout_namingIt() {
    Decision d =
        decide(
            status(DRAINING, LATE_DRAIN),
            BmcPowerState.ON,
            cached(CORDONED, List.of()).withServerPods(List.of(WEB)));

    assertThat(d.next().state()).isEqualTo(ERROR);
    assertThat(d.next().lastError()).contains("drain did not finish").contains("apps/web");
  }

  @Test
  void aListThatFailedLeavesTheDrainWaitingWithItsTimerPaused() {
    NodeStatus draining = status(DRAINING, Duration.ofMinutes(2));
    // what NodeKube.withServerPods answers when the list fails
    Decision d = decide(draining, BmcPowerState.ON, KubeView.UNREACHABLE);

    assertThat(d.next().state()).isEqualTo(DRAINING);
    assertThat(d.action()).isEqualTo(Action.NONE);
    assertThat(d.next().timerStarted()).as("timer paused").isNull();
    assertThat(d.next().timerElapsed()).isEqualTo(Duration.ofMinutes(2));
  }

  @Test
  void whileTheCacheShowsWorkloadsNothingIsListed() {
    Decision d = decide(status(DRAINING, JUST), BmcPowerState.ON, cached(CORDONED, List.of(WEB)));

    assertThat(d.action().kind()).isEqualTo(Action.Kind.DRAIN);
    assertThat(d.action().evict()).containsExactly(new PodRef("apps", "web"));
  }

  @Test
  void inErrorWithDesiredOff_theServerDecidesBeforeTheSwitchOff() {
    NodeStatus error = status(ERROR, JUST);
    assertThat(decide(error, BmcPowerState.ON, cached(CORDONED, List.of())).action())
        .isEqualTo(Action.LIST_PODS);

    Decision empty =
        decide(error, BmcPowerState.ON, cached(CORDONED, List.of()).withServerPods(List.of()));
    assertThat(empty.next().state()).isEqualTo(POWERING_OFF);

    Decision busy =
        decide(error, BmcPowerState.ON, cached(CORDONED, List.of()).withServerPods(List.of(WEB)));
    assertThat(busy.next().state()).isEqualTo(ERROR);
    assertThat(busy.action().evict()).containsExactly(new PodRef("apps", "web"));
  }

  @Test
  void aNodeFoundOnWhileDesiredOff_theServerDecidesBeforeTheSwitchOff() {
    NodeStatus off = status(OFF, JUST);
    KubeNode ready = kubeNode(true, false, false);
    assertThat(decide(off, BmcPowerState.ON, cached(ready, List.of())).action())
        .isEqualTo(Action.LIST_PODS);

    Decision empty =
        decide(off, BmcPowerState.ON, cached(ready, List.of()).withServerPods(List.of()));
    assertThat(empty.next().state()).isEqualTo(POWERING_OFF);
    assertThat(empty.drift()).isEqualTo(Drift.UNEXPECTED_ON);

    Decision busy =
        decide(off, BmcPowerState.ON, cached(ready, List.of()).withServerPods(List.of(WEB)));
    assertThat(busy.next().state()).isEqualTo(ERROR);
    assertThat(busy.next().lastError()).contains("apps/web").contains("not switching it off");
  }

  @Test
  void viewsWithoutACacheAreDecidedAsBefore() {
    // tests and simulations show the cluster as it is (KubeView.present): no list is asked for
    Decision d =
        decide(
            status(DRAINING, JUST),
            BmcPowerState.ON,
            KubeView.present(CORDONED, List.of(), Map.of()));
    assertThat(d.next().state()).isEqualTo(POWERING_OFF);

    for (KubeView view : List.of(KubeView.DISABLED, KubeView.ABSENT)) {
      assertThat(decide(status(DRAINING, JUST), BmcPowerState.ON, view).next().state())
          .as(view.mode().toString())
          .isEqualTo(POWERING_OFF);
    }
  }
}
