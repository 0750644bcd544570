package io.bamel.node;

import static io.bamel.inventory.model.NodeState.DRAINING;
import static io.bamel.inventory.model.NodeState.ERROR;
import static io.bamel.inventory.model.NodeState.JOINING;
import static io.bamel.inventory.model.NodeState.OFF;
import static io.bamel.inventory.model.NodeState.POWERING_OFF;
import static io.bamel.inventory.model.NodeState.POWERING_ON;
import static io.bamel.inventory.model.NodeState.READY;
import static io.bamel.inventory.model.NodeState.UNKNOWN;
import static io.bamel.inventory.model.PowerAction.POWER_CYCLE;
import static io.bamel.inventory.model.PowerAction.POWER_OFF;
import static io.bamel.inventory.model.PowerAction.POWER_OFF_FORCE;
import static io.bamel.inventory.model.PowerAction.POWER_ON;
import static io.bamel.node.Action.Kind.ADMIT;
import static io.bamel.node.Action.Kind.DRAIN;
import static io.bamel.node.Action.Kind.LABEL;
import static io.bamel.node.Action.Kind.NONE;
import static io.bamel.node.Action.Kind.UNCORDON;
import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.PodRef;
import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.NodeTimeouts;
import io.bamel.inventory.model.ObservedPower;
import io.bamel.inventory.model.PowerAction;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.node.Decision.Drift;
import io.bamel.power.BmcPowerState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The node lifecycle, as tables of (state, desired, power, Kubernetes, time) -> (state, action).
 */
class NodeStateMachineTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final NodeTimeouts TIMEOUTS = NodeTimeouts.DEFAULTS;

  static final BmcPowerState ON_ = BmcPowerState.ON;
  static final BmcPowerState OFF_ = BmcPowerState.OFF;
  static final BmcPowerState UP = BmcPowerState.POWERING_ON;
  static final BmcPowerState DOWN = BmcPowerState.POWERING_OFF;
  static final BmcPowerState UNK = BmcPowerState.UNKNOWN;

  static final Duration JUST = Duration.ofSeconds(1);
  static final Duration LATE_ON = TIMEOUTS.powerOn().plusSeconds(1);
  static final Duration LATE_JOIN = TIMEOUTS.join().plusSeconds(1);
  static final Duration LATE_DRAIN = TIMEOUTS.drain().plusSeconds(1);
  static final Duration LATE_OFF = TIMEOUTS.powerOff().plusSeconds(1);

  // ------------------------------------------------------------------ fixtures

  static NodeSpec spec(DesiredPower desired) {
    return NodeSpec.builder()
        .name("n1")
        .pool("batch")
        .mgmtAddress("https://192.0.2.1")
        .powerInterface(PowerInterface.of("redfish"))
        .desiredPower(desired)
        .build();
  }

  static KubeNode kubeNode(boolean ready, boolean cordoned, boolean doNotDisrupt) {
    return new KubeNode(
        "n1",
        ready,
        cordoned,
        Map.of(),
        doNotDisrupt ? Map.of(Cluster.DO_NOT_DISRUPT, "true") : Map.of(),
        Map.of());
  }

  static KubePod pod(String name, String owner, boolean doNotDisrupt) {
    return new KubePod(
        new PodRef("apps", name),
        "n1",
        "Running",
        Map.of(),
        true,
        null,
        owner,
        Map.of(),
        doNotDisrupt ? Map.of(Cluster.DO_NOT_DISRUPT, "true") : Map.of(),
        Map.of(),
        Set.of(),
        List.of());
  }

  static final KubeView NO_K8S = KubeView.DISABLED;
  static final KubeView DOWN_K8S = KubeView.UNREACHABLE;
  static final KubeView ABSENT = KubeView.ABSENT;
  static final KubeView NOT_READY =
      KubeView.present(kubeNode(false, false, false), List.of(), Map.of());
  static final KubeView READY_EMPTY =
      KubeView.present(kubeNode(true, false, false), List.of(), Map.of());
  static final KubeView READY_DAEMONS =
      KubeView.present(
          kubeNode(true, true, false), List.of(pod("ds", "DaemonSet", false)), Map.of());
  static final KubeView READY_BUSY =
      KubeView.present(
          kubeNode(true, false, false), List.of(pod("web", "ReplicaSet", false)), Map.of());
  static final KubeView CORDONED_BUSY =
      KubeView.present(
          kubeNode(true, true, false),
          List.of(pod("web", "ReplicaSet", false), pod("db", "StatefulSet", false)),
          Map.of("apps/db", "eviction refused (429): budget db-pdb"));

  static NodeStatus status(NodeState state, Duration elapsed) {
    Instant start = T0.minus(elapsed);
    return NodeStatus.builder()
        .state(state)
        .stateSince(start)
        .observedPower(ObservedPower.UNKNOWN)
        .timerStarted(start)
        .timerElapsed(Duration.ZERO)
        .powerActionTime(start)
        .build();
  }

  static Decision decide(NodeSpec spec, NodeStatus status, BmcPowerState power, KubeView kube) {
    return decide(TIMEOUTS, spec, status, power, kube);
  }

  static Decision decide(
      NodeTimeouts timeouts, NodeSpec spec, NodeStatus status, BmcPowerState power, KubeView kube) {
    return NodeStateMachine.decide(
        new Observation(
            spec, 7, status, PowerReading.of(power), kube, timeouts, Map.of("tier", "2"), T0));
  }

  // ------------------------------------------------------------------ the table

  /** One row: from state (elapsed in it), desired, BMC, Kubernetes -> state, action, drift. */
  record Case(
      NodeState from,
      Duration elapsed,
      DesiredPower desired,
      BmcPowerState power,
      KubeView kube,
      NodeState to,
      Enum<?> action,
      Drift drift) {

    @Override
    public String toString() {
      return from
          + "+"
          + elapsed.toSeconds()
          + "s desired="
          + desired
          + " bmc="
          + power
          + " k8s="
          + kube.mode()
          + (kube.node() != null ? (kube.node().ready() ? "/ready" : "/notready") : "")
          + "/"
          + kube.workloads().size()
          + "pods -> "
          + to
          + " "
          + action
          + (drift == null ? "" : " drift=" + drift);
    }
  }

  static Case c(
      NodeState from,
      Duration e,
      DesiredPower d,
      BmcPowerState p,
      KubeView k,
      NodeState to,
      Enum<?> a) {
    return new Case(from, e, d, p, k, to, a, null);
  }

  static Case drift(
      NodeState from,
      Duration e,
      DesiredPower d,
      BmcPowerState p,
      KubeView k,
      NodeState to,
      Enum<?> a,
      Drift drift) {
    return new Case(from, e, d, p, k, to, a, drift);
  }

  static final DesiredPower WANT_ON = DesiredPower.ON;
  static final DesiredPower WANT_OFF = DesiredPower.OFF;

  static Stream<Case> table() {
    List<Case> t = new ArrayList<>();
    // unknown: adopt what the BMC and Kubernetes show
    t.add(c(UNKNOWN, JUST, WANT_ON, OFF_, READY_EMPTY, OFF, NONE));
    t.add(c(UNKNOWN, JUST, WANT_ON, ON_, READY_EMPTY, READY, LABEL));
    t.add(c(UNKNOWN, JUST, WANT_ON, ON_, NO_K8S, READY, NONE));
    t.add(c(UNKNOWN, JUST, WANT_ON, ON_, NOT_READY, JOINING, NONE));
    t.add(c(UNKNOWN, JUST, WANT_ON, ON_, ABSENT, JOINING, NONE));
    t.add(c(UNKNOWN, JUST, WANT_ON, ON_, DOWN_K8S, JOINING, NONE));
    t.add(c(UNKNOWN, JUST, WANT_OFF, ON_, READY_BUSY, READY, LABEL));
    t.add(c(UNKNOWN, JUST, WANT_ON, UP, ABSENT, POWERING_ON, NONE));
    t.add(c(UNKNOWN, JUST, WANT_OFF, DOWN, ABSENT, POWERING_OFF, NONE));
    t.add(c(UNKNOWN, JUST, WANT_OFF, UNK, ABSENT, UNKNOWN, NONE));
    // off
    t.add(c(OFF, JUST, WANT_OFF, OFF_, READY_EMPTY, OFF, NONE));
    t.add(c(OFF, JUST, WANT_ON, OFF_, ABSENT, POWERING_ON, POWER_ON));
    t.add(c(OFF, JUST, WANT_ON, OFF_, DOWN_K8S, POWERING_ON, POWER_ON)); // power-on goes on
    t.add(c(OFF, JUST, WANT_ON, OFF_, NO_K8S, POWERING_ON, POWER_ON));
    t.add(c(OFF, JUST, WANT_ON, UNK, NO_K8S, POWERING_ON, POWER_ON));
    t.add(c(OFF, JUST, WANT_ON, ON_, NOT_READY, JOINING, NONE));
    t.add(c(OFF, JUST, WANT_ON, ON_, READY_EMPTY, READY, LABEL));
    t.add(c(OFF, JUST, WANT_ON, UP, ABSENT, POWERING_ON, NONE));
    t.add(c(OFF, JUST, WANT_OFF, DOWN, ABSENT, OFF, NONE));
    // drift: on while it should be off
    t.add(drift(OFF, JUST, WANT_OFF, ON_, NO_K8S, POWERING_OFF, POWER_OFF, Drift.UNEXPECTED_ON));
    t.add(drift(OFF, JUST, WANT_OFF, ON_, ABSENT, POWERING_OFF, POWER_OFF, Drift.UNEXPECTED_ON));
    t.add(
        drift(OFF, JUST, WANT_OFF, ON_, READY_EMPTY, POWERING_OFF, POWER_OFF, Drift.UNEXPECTED_ON));
    t.add(
        drift(
            OFF, JUST, WANT_OFF, ON_, READY_DAEMONS, POWERING_OFF, POWER_OFF, Drift.UNEXPECTED_ON));
    t.add(drift(OFF, JUST, WANT_OFF, ON_, READY_BUSY, ERROR, NONE, Drift.UNEXPECTED_ON));
    t.add(drift(OFF, JUST, WANT_OFF, ON_, DOWN_K8S, ERROR, NONE, Drift.UNEXPECTED_ON));
    // powering-on
    t.add(c(POWERING_ON, JUST, WANT_ON, OFF_, ABSENT, POWERING_ON, NONE));
    t.add(c(POWERING_ON, JUST, WANT_ON, UP, ABSENT, POWERING_ON, NONE));
    t.add(c(POWERING_ON, JUST, WANT_ON, ON_, ABSENT, JOINING, NONE));
    t.add(c(POWERING_ON, JUST, WANT_ON, ON_, NO_K8S, READY, NONE));
    t.add(c(POWERING_ON, LATE_ON, WANT_ON, OFF_, ABSENT, ERROR, NONE));
    t.add(c(POWERING_ON, LATE_ON, WANT_ON, ON_, ABSENT, JOINING, NONE));
    t.add(c(POWERING_ON, JUST, WANT_OFF, UP, ABSENT, POWERING_OFF, POWER_OFF));
    t.add(c(POWERING_ON, JUST, WANT_OFF, OFF_, ABSENT, POWERING_OFF, POWER_OFF));
    // on already though desired off now: it may have joined, so through joining (then drained)
    t.add(c(POWERING_ON, JUST, WANT_OFF, ON_, ABSENT, JOINING, NONE));
    t.add(c(POWERING_ON, JUST, WANT_OFF, ON_, READY_BUSY, JOINING, NONE));
    t.add(c(POWERING_ON, JUST, WANT_OFF, ON_, DOWN_K8S, JOINING, NONE));
    t.add(c(POWERING_ON, JUST, WANT_OFF, ON_, NO_K8S, READY, NONE));
    // joining
    t.add(c(JOINING, JUST, WANT_ON, ON_, ABSENT, JOINING, NONE));
    t.add(c(JOINING, JUST, WANT_ON, ON_, NOT_READY, JOINING, NONE));
    t.add(c(JOINING, JUST, WANT_ON, ON_, READY_EMPTY, READY, ADMIT));
    t.add(c(JOINING, JUST, WANT_ON, ON_, NO_K8S, READY, NONE));
    t.add(c(JOINING, LATE_JOIN, WANT_ON, ON_, NOT_READY, JOINING, POWER_CYCLE));
    t.add(c(JOINING, LATE_JOIN, WANT_ON, ON_, ABSENT, JOINING, POWER_CYCLE));
    t.add(c(JOINING, LATE_JOIN, WANT_ON, ON_, READY_EMPTY, READY, ADMIT));
    t.add(c(JOINING, LATE_JOIN, WANT_ON, ON_, DOWN_K8S, JOINING, NONE)); // paused
    t.add(drift(JOINING, JUST, WANT_ON, OFF_, ABSENT, POWERING_ON, POWER_ON, Drift.UNEXPECTED_OFF));
    t.add(c(JOINING, JUST, WANT_OFF, OFF_, ABSENT, OFF, NONE));
    t.add(c(JOINING, JUST, WANT_OFF, ON_, NOT_READY, DRAINING, DRAIN));
    t.add(c(JOINING, JUST, WANT_OFF, ON_, NO_K8S, POWERING_OFF, POWER_OFF));
    t.add(c(JOINING, JUST, WANT_OFF, ON_, ABSENT, DRAINING, DRAIN));
    t.add(c(JOINING, JUST, WANT_OFF, ON_, DOWN_K8S, JOINING, NONE)); // never drain unseen
    t.add(c(JOINING, LATE_JOIN, WANT_OFF, ON_, DOWN_K8S, JOINING, NONE)); // nor cycle
    // ready
    t.add(c(READY, JUST, WANT_ON, ON_, READY_EMPTY, READY, NONE));
    // NotReady or gone, first seen now: still ready and capacity, timed from now (it no longer
    // stays ready forever: notReadyTable has the not-ready and remediation timeouts)
    t.add(c(READY, JUST, WANT_ON, ON_, NOT_READY, READY, NONE));
    t.add(c(READY, JUST, WANT_ON, ON_, ABSENT, READY, NONE));
    t.add(c(READY, JUST, WANT_ON, ON_, DOWN_K8S, READY, NONE));
    t.add(
        drift(
            READY, JUST, WANT_ON, OFF_, READY_EMPTY, POWERING_ON, POWER_ON, Drift.UNEXPECTED_OFF));
    t.add(drift(READY, JUST, WANT_ON, OFF_, NO_K8S, POWERING_ON, POWER_ON, Drift.UNEXPECTED_OFF));
    t.add(c(READY, JUST, WANT_OFF, ON_, READY_BUSY, DRAINING, DRAIN));
    t.add(c(READY, JUST, WANT_OFF, ON_, READY_EMPTY, DRAINING, DRAIN));
    t.add(c(READY, JUST, WANT_OFF, ON_, ABSENT, DRAINING, DRAIN));
    t.add(c(READY, JUST, WANT_OFF, ON_, DOWN_K8S, READY, NONE)); // never drain unseen
    t.add(c(READY, JUST, WANT_OFF, ON_, NO_K8S, POWERING_OFF, POWER_OFF));
    t.add(c(READY, JUST, WANT_OFF, OFF_, READY_EMPTY, OFF, NONE));
    // draining
    t.add(c(DRAINING, JUST, WANT_OFF, ON_, READY_BUSY, DRAINING, DRAIN));
    t.add(c(DRAINING, JUST, WANT_OFF, ON_, READY_DAEMONS, POWERING_OFF, POWER_OFF));
    t.add(c(DRAINING, JUST, WANT_OFF, ON_, READY_EMPTY, POWERING_OFF, POWER_OFF));
    t.add(c(DRAINING, JUST, WANT_OFF, ON_, ABSENT, POWERING_OFF, POWER_OFF));
    t.add(c(DRAINING, JUST, WANT_OFF, ON_, DOWN_K8S, DRAINING, NONE));
    t.add(c(DRAINING, LATE_DRAIN, WANT_OFF, ON_, DOWN_K8S, DRAINING, NONE)); // paused
    t.add(c(DRAINING, LATE_DRAIN, WANT_OFF, ON_, CORDONED_BUSY, ERROR, NONE));
    t.add(c(DRAINING, JUST, WANT_ON, ON_, READY_BUSY, READY, UNCORDON));
    t.add(c(DRAINING, JUST, WANT_OFF, OFF_, READY_BUSY, OFF, NONE));
    t.add(c(DRAINING, JUST, WANT_ON, OFF_, READY_BUSY, POWERING_ON, POWER_ON));
    // powering-off
    t.add(c(POWERING_OFF, JUST, WANT_OFF, ON_, ABSENT, POWERING_OFF, NONE));
    t.add(c(POWERING_OFF, JUST, WANT_OFF, DOWN, ABSENT, POWERING_OFF, NONE));
    t.add(c(POWERING_OFF, JUST, WANT_OFF, OFF_, ABSENT, OFF, NONE));
    t.add(c(POWERING_OFF, JUST, WANT_ON, OFF_, ABSENT, OFF, NONE));
    t.add(c(POWERING_OFF, LATE_OFF, WANT_OFF, ON_, ABSENT, POWERING_OFF, POWER_OFF_FORCE));
    // error: retries and leaves by itself when the cause is gone
    t.add(c(ERROR, JUST, WANT_ON, OFF_, ABSENT, POWERING_ON, POWER_ON));
    t.add(c(ERROR, JUST, WANT_ON, UP, ABSENT, POWERING_ON, NONE));
    t.add(c(ERROR, JUST, WANT_ON, ON_, READY_EMPTY, READY, ADMIT));
    t.add(c(ERROR, JUST, WANT_ON, ON_, NO_K8S, READY, NONE));
    t.add(c(ERROR, JUST, WANT_ON, ON_, NOT_READY, JOINING, NONE));
    t.add(c(ERROR, JUST, WANT_ON, ON_, DOWN_K8S, ERROR, NONE));
    t.add(c(ERROR, JUST, WANT_OFF, OFF_, READY_BUSY, OFF, NONE));
    t.add(c(ERROR, JUST, WANT_OFF, DOWN, ABSENT, POWERING_OFF, NONE));
    t.add(c(ERROR, JUST, WANT_OFF, ON_, READY_EMPTY, POWERING_OFF, POWER_OFF));
    t.add(c(ERROR, JUST, WANT_OFF, ON_, ABSENT, POWERING_OFF, POWER_OFF));
    t.add(c(ERROR, JUST, WANT_OFF, ON_, NO_K8S, POWERING_OFF, POWER_OFF));
    t.add(c(ERROR, JUST, WANT_OFF, ON_, DOWN_K8S, ERROR, NONE));
    t.add(c(ERROR, JUST, WANT_OFF, ON_, CORDONED_BUSY, ERROR, DRAIN)); // our drain: keep evicting
    t.add(c(ERROR, JUST, WANT_OFF, ON_, READY_BUSY, ERROR, NONE)); // not ours: never evict
    return t.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("table")
  void transitions(Case c) {
    Decision d = decide(spec(c.desired()), status(c.from(), c.elapsed()), c.power(), c.kube());
    assertThat(d.next().state()).as("state").isEqualTo(c.to());
    assertThat(d.action().verb()).as("action").isEqualTo(c.action());
    assertThat(d.drift()).as("drift").isEqualTo(c.drift());
    if (d.next().state() != c.from()) {
      assertThat(d.event()).as("every transition has an event").isNotNull();
      assertThat(d.event().from()).isEqualTo(c.from());
      assertThat(d.event().to()).isEqualTo(c.to());
      assertThat(d.event().time()).isEqualTo(T0);
      assertThat(d.next().stateSince()).isEqualTo(T0);
    }
    if (d.action().isPower()) {
      assertThat(d.next().lastPowerAction().json())
          .as("written ahead")
          .isEqualTo(d.action().text());
      assertThat(d.next().powerActionTime()).isEqualTo(T0);
    }
    assertThat(d.next().observedSpecRevision()).isEqualTo(7);
  }

  @Test
  void everyStateAppearsInTheTable() {
    Set<NodeState> covered = EnumSet.noneOf(NodeState.class);
    table().forEach(c -> covered.add(c.from()));
    assertThat(covered).containsExactlyInAnyOrder(NodeState.values());
  }

  // ------------------------------------------------------------------ bamel's own power cycle

  /**
   * Joining after bamel's power cycle (the join timed out): {@code since} the cycle was requested,
   * the BMC answers {@code power}, and the one before it saw {@code seen}.
   */
  record CycleCase(
      Duration since,
      DesiredPower desired,
      BmcPowerState power,
      ObservedPower seen,
      KubeView kube,
      NodeState to,
      Enum<?> action,
      Drift drift) {

    @Override
    public String toString() {
      return "power-cycle "
          + since.toSeconds()
          + "s ago, desired="
          + desired
          + " bmc="
          + power
          + " (before: "
          + seen
          + ") k8s="
          + kube.mode()
          + " -> "
          + to
          + " "
          + action
          + (drift == null ? "" : " drift=" + drift);
    }
  }

  static Stream<CycleCase> cycleTable() {
    Duration late = TIMEOUTS.powerOn().plusSeconds(1);
    Duration edge = TIMEOUTS.powerOn();
    ObservedPower on = ObservedPower.ON;
    ObservedPower off = ObservedPower.OFF;
    return Stream.of(
        // the cycle passes through off: expected, waited out (no power-on, no drift)
        new CycleCase(JUST, WANT_ON, OFF_, on, NOT_READY, JOINING, NONE, null),
        new CycleCase(JUST, WANT_ON, OFF_, off, ABSENT, JOINING, NONE, null),
        new CycleCase(JUST, WANT_ON, OFF_, on, DOWN_K8S, JOINING, NONE, null),
        new CycleCase(JUST, WANT_ON, OFF_, on, NO_K8S, JOINING, NONE, null),
        new CycleCase(edge, WANT_ON, OFF_, off, NOT_READY, JOINING, NONE, null),
        // still off past the power-on timeout: the cycle failed (error, whose retry powers on)
        new CycleCase(late, WANT_ON, OFF_, off, NOT_READY, ERROR, NONE, null),
        // off again after it was seen on, past the window: switched off from outside
        new CycleCase(
            late, WANT_ON, OFF_, on, NOT_READY, POWERING_ON, POWER_ON, Drift.UNEXPECTED_OFF),
        // coming back
        new CycleCase(JUST, WANT_ON, UP, off, NOT_READY, JOINING, NONE, null),
        new CycleCase(JUST, WANT_ON, ON_, off, NOT_READY, JOINING, NONE, null),
        new CycleCase(JUST, WANT_ON, ON_, off, READY_EMPTY, READY, ADMIT, null),
        // desired off meanwhile: off is where it should be
        new CycleCase(JUST, WANT_OFF, OFF_, on, NOT_READY, OFF, NONE, null));
  }

  static NodeStatus cycled(Duration since, ObservedPower seen) {
    // the join timed out; the cycle restarted the timer and recorded the action
    return status(JOINING, TIMEOUTS.join().plus(since)).toBuilder()
        .lastPowerAction(PowerAction.POWER_CYCLE)
        .powerActionTime(T0.minus(since))
        .timerStarted(T0.minus(since))
        .powerCycled(true)
        .observedPower(seen)
        .build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cycleTable")
  void afterItsOwnPowerCycle(CycleCase c) {
    Decision d = decide(spec(c.desired()), cycled(c.since(), c.seen()), c.power(), c.kube());
    assertThat(d.next().state()).as("state").isEqualTo(c.to());
    assertThat(d.action().verb()).as("action").isEqualTo(c.action());
    assertThat(d.drift()).as("drift").isEqualTo(c.drift());
    if (c.to() == JOINING) {
      assertThat(d.event()).as("nothing to record").isNull();
      assertThat(d.next().lastPowerAction()).isEqualTo(PowerAction.POWER_CYCLE);
    }
    if (c.to() == ERROR) {
      assertThat(d.next().lastError())
          .isEqualTo("BMC still reports off 5m after power-cycle was requested");
    }
  }

  @Test
  void anOffAfterAPowerOnIsStillDrift() {
    // the same observation after bamel's power-on (not a cycle) is an outside power-off
    NodeStatus joining =
        cycled(JUST, ObservedPower.ON).toBuilder().lastPowerAction(PowerAction.POWER_ON).build();
    Decision d = decide(spec(WANT_ON), joining, OFF_, NOT_READY);
    assertThat(d.action().verb()).isEqualTo(POWER_ON);
    assertThat(d.drift()).isEqualTo(Drift.UNEXPECTED_OFF);
    assertThat(d.event().reason()).isEqualTo("unexpected power off");
  }

  // ------------------------------------------------------------------ boot profile

  static Stream<org.junit.jupiter.params.provider.Arguments> bootProfiles() {
    return Stream.of(
            new Object[] {"pxe", true},
            new Object[] {"PXE", true},
            new Object[] {" pxe ", true},
            new Object[] {"pxe-ubuntu-24", true},
            new Object[] {"pxe:rescue", true},
            new Object[] {"Pxe-Talos", true},
            new Object[] {"no-pxe", false},
            new Object[] {"ipxe", false},
            new Object[] {"disk-pxe", false},
            new Object[] {"pxelinux", false},
            new Object[] {"pxe_", false},
            new Object[] {"disk", false},
            new Object[] {"", false},
            new Object[] {null, false})
        .map(org.junit.jupiter.params.provider.Arguments::of);
  }

  @ParameterizedTest(name = "bootProfile={0} -> pxe {1}")
  @MethodSource("bootProfiles")
  void aPxeBootIsAskedForOnlyByAPxeProfile(String profile, boolean pxe) {
    assertThat(NodeStateMachine.pxeBoot(profile)).isEqualTo(pxe);
    NodeSpec spec = spec(WANT_ON).toBuilder().bootProfile(profile).build();
    for (NodeState from : List.of(OFF, ERROR)) {
      Decision d = decide(spec, status(from, JUST), OFF_, ABSENT);
      assertThat(d.action().verb()).isEqualTo(POWER_ON);
      assertThat(d.action().pxe()).as(from + " " + profile).isEqualTo(pxe);
    }
    Decision drift = decide(spec, status(READY, JUST), OFF_, NO_K8S); // the power-on after drift
    assertThat(drift.action().pxe()).isEqualTo(pxe);
  }

  // ------------------------------------------------------------------ timeout values

  static final NodeTimeouts CUSTOM =
      NodeTimeouts.of(
          Duration.ofSeconds(90),
          Duration.ofMinutes(7),
          Duration.ofMinutes(2),
          Duration.ofSeconds(45));

  /** One row: a state at {@code elapsed} under {@link #CUSTOM} -> action (and error text). */
  record TimeoutCase(
      NodeState from,
      Duration elapsed,
      DesiredPower desired,
      BmcPowerState power,
      KubeView kube,
      NodeState to,
      Enum<?> action,
      String error) {

    @Override
    public String toString() {
      return from + "+" + elapsed.toSeconds() + "s bmc=" + power + " -> " + to + " " + action;
    }
  }

  static Stream<TimeoutCase> customTimeouts() {
    Duration s = Duration.ofSeconds(1);
    return Stream.of(
        new TimeoutCase(
            POWERING_ON, CUSTOM.powerOn(), WANT_ON, OFF_, ABSENT, POWERING_ON, NONE, null),
        new TimeoutCase(
            POWERING_ON,
            CUSTOM.powerOn().plus(s),
            WANT_ON,
            OFF_,
            ABSENT,
            ERROR,
            NONE,
            "BMC still reports off 1m30s after power-on was requested"),
        new TimeoutCase(JOINING, CUSTOM.join(), WANT_ON, ON_, NOT_READY, JOINING, NONE, null),
        new TimeoutCase(
            JOINING, CUSTOM.join().plus(s), WANT_ON, ON_, NOT_READY, JOINING, POWER_CYCLE, null),
        new TimeoutCase(
            DRAINING, CUSTOM.drain(), WANT_OFF, ON_, CORDONED_BUSY, DRAINING, DRAIN, null),
        new TimeoutCase(
            DRAINING,
            CUSTOM.drain().plus(s),
            WANT_OFF,
            ON_,
            CORDONED_BUSY,
            ERROR,
            NONE,
            "drain did not finish within 2m"),
        new TimeoutCase(
            POWERING_OFF, CUSTOM.powerOff(), WANT_OFF, ON_, ABSENT, POWERING_OFF, NONE, null),
        new TimeoutCase(
            POWERING_OFF,
            CUSTOM.powerOff().plus(s),
            WANT_OFF,
            ON_,
            ABSENT,
            POWERING_OFF,
            POWER_OFF_FORCE,
            null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("customTimeouts")
  void nonDefaultTimeoutsAreTheOnesThatCount(TimeoutCase c) {
    NodeStatus s =
        status(c.from(), c.elapsed()).toBuilder().lastPowerAction(PowerAction.POWER_ON).build();
    Decision d = decide(CUSTOM, spec(c.desired()), s, c.power(), c.kube());
    assertThat(d.next().state()).as("state").isEqualTo(c.to());
    assertThat(d.action().verb()).as("action").isEqualTo(c.action());
    if (c.error() != null) {
      assertThat(d.next().lastError()).startsWith(c.error());
    }
    // every custom value is shorter than the default: the defaults would still be waiting
    Decision byDefault = decide(TIMEOUTS, spec(c.desired()), s, c.power(), c.kube());
    assertThat(byDefault.next().state()).isEqualTo(c.from());
    assertThat(byDefault.action().verb()).isIn(NONE, DRAIN);
  }

  static Stream<org.junit.jupiter.params.provider.Arguments> timeoutResolution() {
    NodeTimeouts joinOnly = NodeTimeouts.of(null, Duration.ofMinutes(10), null, null);
    NodeTimeouts powerOnOnly = NodeTimeouts.of(Duration.ofMinutes(1), null, null, null);
    io.bamel.inventory.model.PoolConfig noTimeouts =
        io.bamel.inventory.model.PoolConfig.builder().build();
    io.bamel.inventory.model.PoolConfig poolJoin =
        io.bamel.inventory.model.PoolConfig.builder().timeouts(joinOnly).build();
    io.bamel.inventory.model.PoolConfig poolAll =
        io.bamel.inventory.model.PoolConfig.builder().timeouts(CUSTOM).build();
    Duration m = Duration.ofMinutes(1);
    return Stream.of(
            // pool, global -> powerOn, join, drain, powerOff
            new Object[] {null, null, TIMEOUTS},
            new Object[] {null, CUSTOM, CUSTOM},
            new Object[] {noTimeouts, CUSTOM, CUSTOM},
            new Object[] {poolAll, null, CUSTOM},
            new Object[] {poolAll, TIMEOUTS, CUSTOM},
            new Object[] {
              poolJoin,
              CUSTOM,
              NodeTimeouts.of(
                  CUSTOM.powerOn(), Duration.ofMinutes(10), CUSTOM.drain(), CUSTOM.powerOff())
            },
            new Object[] {
              poolJoin,
              null,
              NodeTimeouts.of(
                  Duration.ofMinutes(5),
                  Duration.ofMinutes(10),
                  Duration.ofMinutes(10),
                  Duration.ofMinutes(5))
            },
            new Object[] {
              poolJoin,
              powerOnOnly,
              NodeTimeouts.of(
                  m, Duration.ofMinutes(10), Duration.ofMinutes(10), Duration.ofMinutes(5))
            })
        .map(org.junit.jupiter.params.provider.Arguments::of);
  }

  @ParameterizedTest(name = "pool {0}, global {1} -> {2}")
  @MethodSource("timeoutResolution")
  void aPoolsTimeoutsWinOverTheGlobalOnesStepByStep(
      io.bamel.inventory.model.PoolConfig pool, NodeTimeouts global, NodeTimeouts expected) {
    assertThat(NodeStateMachine.timeouts(pool, global))
        .isEqualTo(expected.orElse(NodeTimeouts.DEFAULTS));
  }

  @Test
  void aPoolsJoinTimeoutDecidesWhenItsNodesAreCycled() {
    // global join 7 min, the pool's 10 min: at 8 min a member of the pool waits, another cycles
    io.bamel.inventory.model.PoolConfig pool =
        io.bamel.inventory.model.PoolConfig.builder()
            .timeouts(NodeTimeouts.of(null, Duration.ofMinutes(10), null, null))
            .build();
    NodeStatus joining = status(JOINING, Duration.ofMinutes(8));
    NodeTimeouts member = NodeStateMachine.timeouts(pool, CUSTOM);
    NodeTimeouts other = NodeStateMachine.timeouts(null, CUSTOM);
    assertThat(decide(member, spec(WANT_ON), joining, ON_, NOT_READY).action().verb())
        .isEqualTo(NONE);
    assertThat(decide(other, spec(WANT_ON), joining, ON_, NOT_READY).action().verb())
        .isEqualTo(POWER_CYCLE);
    NodeStatus late = status(JOINING, Duration.ofMinutes(10).plusSeconds(1));
    Decision cycle = decide(member, spec(WANT_ON), late, ON_, NOT_READY);
    assertThat(cycle.action().verb()).isEqualTo(POWER_CYCLE);
    assertThat(cycle.event().reason()).isEqualTo("not Ready in Kubernetes after 10m: power cycle");
  }

  // ------------------------------------------------------------------ details

  @Test
  void maintenanceStopsEveryActionInEveryState() {
    NodeSpec on = spec(WANT_ON).toBuilder().maintenance(true).build();
    NodeSpec off = spec(WANT_OFF).toBuilder().maintenance(true).build();
    for (NodeState state : NodeState.values()) {
      for (NodeSpec spec : List.of(on, off)) {
        for (BmcPowerState p : BmcPowerState.values()) {
          for (KubeView k : List.of(READY_BUSY, CORDONED_BUSY, ABSENT, DOWN_K8S, NO_K8S)) {
            Decision d = decide(spec, status(state, LATE_JOIN), p, k);
            assertThat(d.action().verb()).as(state + " " + p + " " + k.mode()).isEqualTo(NONE);
            assertThat(d.next().state()).isEqualTo(state);
          }
        }
      }
    }
    Decision d = decide(on, status(OFF, JUST), OFF_, ABSENT);
    assertThat(d.next().observedPower()).as("still observed").isEqualTo(ObservedPower.OFF);
  }

  @Test
  void joiningAdmitsWithThePoolLabels() {
    Decision d = decide(spec(WANT_ON), status(JOINING, JUST), ON_, READY_EMPTY);
    assertThat(d.action().labels())
        .containsEntry(Cluster.POOL_LABEL, "batch")
        .containsEntry("tier", "2");
    assertThat(d.next().joinTime()).isEqualTo(T0);
    assertThat(d.next().kubernetesNode()).isEqualTo("n1");
    assertThat(d.next().nodeReady()).isTrue();
  }

  @Test
  void aJoinTimeoutPowerCyclesOnceThenErrs() {
    Decision cycle = decide(spec(WANT_ON), status(JOINING, LATE_JOIN), ON_, NOT_READY);
    assertThat(cycle.action().verb()).isEqualTo(POWER_CYCLE);
    assertThat(cycle.next().powerCycled()).isTrue();
    assertThat(cycle.next().timerStarted()).isEqualTo(T0);
    assertThat(cycle.event().action()).isEqualTo("power-cycle");

    NodeStatus cycled = status(JOINING, LATE_JOIN).toBuilder().powerCycled(true).build();
    Decision error = decide(spec(WANT_ON), cycled, ON_, NOT_READY);
    assertThat(error.next().state()).isEqualTo(ERROR);
    assertThat(error.next().lastError()).contains("after a power cycle");
    assertThat(error.next().errorCount()).isEqualTo(1);

    // in error after the cycle: waits for the node (no second cycle), leaves when it is Ready
    NodeStatus erred = error.next();
    assertThat(decide(spec(WANT_ON), erred, ON_, NOT_READY).next().state()).isEqualTo(ERROR);
    assertThat(decide(spec(WANT_ON), erred, ON_, NOT_READY).action().verb()).isEqualTo(NONE);
    Decision recovered = decide(spec(WANT_ON), erred, ON_, READY_EMPTY);
    assertThat(recovered.next().state()).isEqualTo(READY);
    assertThat(recovered.next().lastError()).isNull();
    assertThat(recovered.next().errorCount()).isZero();
  }

  @Test
  void desiredOffWhileJoiningWithKubernetesUnreachableWaitsWithTheTimerPaused() {
    Decision d = decide(spec(WANT_OFF), status(JOINING, Duration.ofMinutes(15)), ON_, DOWN_K8S);
    assertThat(d.next().state()).isEqualTo(JOINING);
    assertThat(d.action().verb()).isEqualTo(NONE);
    assertThat(d.next().timerStarted()).isNull();
    assertThat(d.next().timerElapsed()).isEqualTo(Duration.ofMinutes(15));
    // the API answers again: the drain begins
    Decision back = decide(spec(WANT_OFF), d.next(), ON_, READY_BUSY);
    assertThat(back.next().state()).isEqualTo(DRAINING);
    assertThat(back.action().evict()).containsExactly(new PodRef("apps", "web"));
  }

  @Test
  void theJoinTimerPausesWhileKubernetesIsUnreachable() {
    // 15 min into joining, the API goes away for an hour: no timeout, the timer stops at 15 min
    NodeStatus joining = status(JOINING, Duration.ofMinutes(15));
    Decision paused = decide(spec(WANT_ON), joining, ON_, DOWN_K8S);
    assertThat(paused.next().timerStarted()).isNull();
    assertThat(paused.next().timerElapsed()).isEqualTo(Duration.ofMinutes(15));

    Decision later =
        NodeStateMachine.decide(
            new Observation(
                spec(WANT_ON),
                7,
                paused.next(),
                PowerReading.of(ON_),
                DOWN_K8S,
                TIMEOUTS,
                Map.of(),
                T0.plus(Duration.ofHours(1))));
    assertThat(later.next().state()).isEqualTo(JOINING);
    assertThat(later.action().verb()).isEqualTo(NONE);

    // back: the timer resumes from 15 min, so 4 min later it has not expired, 6 min later it has
    Instant back = T0.plus(Duration.ofHours(1));
    Decision resumed =
        NodeStateMachine.decide(
            new Observation(
                spec(WANT_ON),
                7,
                paused.next(),
                PowerReading.of(ON_),
                NOT_READY,
                TIMEOUTS,
                Map.of(),
                back));
    assertThat(resumed.next().timerStarted()).isEqualTo(back);
    assertThat(resumed.action().verb()).isEqualTo(NONE);
    Decision at4 =
        NodeStateMachine.decide(
            new Observation(
                spec(WANT_ON),
                7,
                resumed.next(),
                PowerReading.of(ON_),
                NOT_READY,
                TIMEOUTS,
                Map.of(),
                back.plus(Duration.ofMinutes(4))));
    assertThat(at4.action().verb()).isEqualTo(NONE);
    Decision at6 =
        NodeStateMachine.decide(
            new Observation(
                spec(WANT_ON),
                7,
                resumed.next(),
                PowerReading.of(ON_),
                NOT_READY,
                TIMEOUTS,
                Map.of(),
                back.plus(Duration.ofMinutes(6))));
    assertThat(at6.action().verb()).isEqualTo(POWER_CYCLE);
  }

  @Test
  void aDrainEvictsWorkloadsButSkipsDaemonSetsMirrorsAndProtectedPods() {
    KubePod mirror =
        new KubePod(
            new PodRef("kube-system", "etcd-n1"),
            "n1",
            "Running",
            Map.of(),
            true,
            null,
            "Node",
            Map.of(),
            Map.of(Cluster.MIRROR_POD, "x"),
            Map.of(),
            Set.of(),
            List.of());
    KubePod done =
        new KubePod(
            new PodRef("apps", "job-1"),
            "n1",
            "Succeeded",
            Map.of(),
            true,
            null,
            "Job",
            Map.of(),
            Map.of(),
            Map.of(),
            Set.of(),
            List.of());
    KubeView k =
        KubeView.present(
            kubeNode(true, false, false),
            List.of(
                pod("web", "ReplicaSet", false),
                pod("ds", "DaemonSet", false),
                pod("keep", "ReplicaSet", true),
                mirror,
                done),
            Map.of());
    Decision d = decide(spec(WANT_OFF), status(READY, JUST), ON_, k);
    assertThat(d.next().state()).isEqualTo(DRAINING);
    assertThat(d.action().evict()).containsExactly(new PodRef("apps", "web"));
  }

  @Test
  void aNodeAnnotatedDoNotDisruptIsNotEvictedAndTheTimeoutSaysWhy() {
    KubeView k =
        KubeView.present(
            kubeNode(true, true, true), List.of(pod("web", "ReplicaSet", false)), Map.of());
    Decision d = decide(spec(WANT_OFF), status(DRAINING, JUST), ON_, k);
    assertThat(d.action().verb()).isEqualTo(DRAIN);
    assertThat(d.action().evict()).isEmpty();
    Decision late = decide(spec(WANT_OFF), status(DRAINING, LATE_DRAIN), ON_, k);
    assertThat(late.next().state()).isEqualTo(ERROR);
    assertThat(late.next().lastError()).contains(Cluster.DO_NOT_DISRUPT);
  }

  @Test
  void aDrainTimeoutNamesTheBlockingPodsAndWhy() {
    Decision d = decide(spec(WANT_OFF), status(DRAINING, LATE_DRAIN), ON_, CORDONED_BUSY);
    assertThat(d.next().lastError())
        .contains("drain did not finish within 10m")
        .contains("apps/db (eviction refused (429): budget db-pdb)")
        .contains("apps/web (not evicted yet)");
    assertThat(d.action().verb()).as("no uncordon: the node stays cordoned").isEqualTo(NONE);
    assertThat(d.event().reason()).contains("apps/db");
  }

  @Test
  void unexpectedPowerOnWithWorkloadsNamesThemAndNeverSwitchesOff() {
    Decision d = decide(spec(WANT_OFF), status(OFF, JUST), ON_, READY_BUSY);
    assertThat(d.next().state()).isEqualTo(ERROR);
    assertThat(d.next().lastError()).contains("unexpected power on").contains("apps/web");
    assertThat(d.action().verb()).isEqualTo(NONE);
    // the pods leave: the error clears itself by switching the node off
    Decision later = decide(spec(WANT_OFF), d.next(), ON_, READY_DAEMONS);
    assertThat(later.action().verb()).isEqualTo(POWER_OFF);
  }

  @Test
  void theForcedPowerOffIsTriedOnceThenErrs() {
    NodeStatus forced =
        status(POWERING_OFF, LATE_OFF).toBuilder()
            .lastPowerAction(PowerAction.POWER_OFF_FORCE)
            .build();
    Decision d = decide(spec(WANT_OFF), forced, ON_, ABSENT);
    assertThat(d.next().state()).isEqualTo(ERROR);
    assertThat(d.next().lastError()).contains("forced");
  }

  @Test
  void aRestartedControllerOnlyObservesAWrittenAheadPowerOn() {
    // found in powering-on (write-ahead done, BMC call maybe not): no second power-on before the
    // timeout; after it, error, and error's retry powers on again
    NodeStatus written =
        status(POWERING_ON, Duration.ofMinutes(2)).toBuilder()
            .lastPowerAction(PowerAction.POWER_ON)
            .build();
    assertThat(decide(spec(WANT_ON), written, OFF_, ABSENT).action().verb()).isEqualTo(NONE);
    NodeStatus late =
        status(POWERING_ON, LATE_ON).toBuilder().lastPowerAction(PowerAction.POWER_ON).build();
    Decision timeout = decide(spec(WANT_ON), late, OFF_, ABSENT);
    assertThat(timeout.next().state()).isEqualTo(ERROR);
    assertThat(timeout.next().lastError()).contains("BMC still reports off 5m after power-on");
    assertThat(decide(spec(WANT_ON), timeout.next(), OFF_, ABSENT).action().verb())
        .isEqualTo(POWER_ON);
  }

  @Test
  void aSilentBmcChangesOnlyReachabilityUntilAPowerTimeout() {
    NodeStatus ready = status(READY, JUST);
    Decision d =
        NodeStateMachine.decide(
            new Observation(
                spec(WANT_OFF),
                7,
                ready,
                PowerReading.failed("UNREACHABLE: refused"),
                READY_BUSY,
                TIMEOUTS,
                Map.of(),
                T0));
    assertThat(d.next().state()).isEqualTo(READY);
    assertThat(d.action().verb()).isEqualTo(NONE);
    assertThat(d.next().bmcReachable()).isFalse();
    assertThat(d.next().lastError()).contains("refused");
    Decision timedOut =
        NodeStateMachine.decide(
            new Observation(
                spec(WANT_ON),
                7,
                status(POWERING_ON, LATE_ON),
                PowerReading.failed("TIMEOUT: slow"),
                ABSENT,
                TIMEOUTS,
                Map.of(),
                T0));
    assertThat(timedOut.next().state()).isEqualTo(ERROR);
    // it answers again: the BMC error is cleared
    Decision back = decide(spec(WANT_OFF), d.next(), ON_, DOWN_K8S);
    assertThat(back.next().bmcReachable()).isTrue();
    assertThat(back.next().lastError()).isNull();
  }

  @Test
  void aNodeWithoutStatusStartsFromUnknown() {
    Decision d =
        NodeStateMachine.decide(
            new Observation(
                spec(WANT_ON), 3, null, PowerReading.of(OFF_), NO_K8S, TIMEOUTS, Map.of(), T0));
    assertThat(d.next().state()).isEqualTo(OFF);
    assertThat(d.event().from()).isEqualTo(UNKNOWN);
  }

  @Test
  void theSameObservationGivesTheSameDecision() {
    table()
        .forEach(
            c -> {
              NodeStatus s = status(c.from(), c.elapsed());
              assertThat(decide(spec(c.desired()), s, c.power(), c.kube()))
                  .isEqualTo(decide(spec(c.desired()), s, c.power(), c.kube()));
            });
  }

  // ------------------------------------------------------------------ NotReady, remediation

  /**
   * One row: a ready node NotReady for {@code down} (null: first seen now; {@code marked}: the
   * not-capacity step was taken), desired, BMC, Kubernetes -> state, action, the remediation step.
   */
  record NotReadyCase(
      Duration down,
      boolean marked,
      DesiredPower desired,
      BmcPowerState power,
      KubeView kube,
      NodeState to,
      Enum<?> action,
      String remediation) {

    @Override
    public String toString() {
      return "ready, NotReady for "
          + (down == null ? "-" : down.toSeconds() + "s")
          + (marked ? " (not capacity)" : "")
          + " desired="
          + desired
          + " bmc="
          + power
          + " k8s="
          + kube.mode()
          + (kube.node() != null ? (kube.node().ready() ? "/ready" : "/notready") : "")
          + " -> "
          + to
          + " "
          + action
          + (remediation == null ? "" : " remediation=" + remediation);
    }
  }

  static NodeStatus notReadyFor(Duration down, boolean marked) {
    NodeStatus s = status(READY, Duration.ofHours(1)).toBuilder().timerStarted(null).build();
    if (down != null) {
      s = s.toBuilder().notReadySince(T0.minus(down)).build();
    }
    return marked ? s.toBuilder().lastError(Transitions.NOT_CAPACITY + "earlier").build() : s;
  }

  static Stream<NotReadyCase> notReadyTable() {
    Duration notReady = TIMEOUTS.notReady();
    Duration remediation = TIMEOUTS.remediation();
    Duration before = notReady.minusSeconds(1);
    return Stream.of(
        new NotReadyCase(null, false, WANT_ON, ON_, NOT_READY, READY, NONE, null),
        new NotReadyCase(before, false, WANT_ON, ON_, NOT_READY, READY, NONE, null),
        new NotReadyCase(notReady, false, WANT_ON, ON_, NOT_READY, READY, NONE, "not-ready"),
        new NotReadyCase(notReady, false, WANT_ON, ON_, ABSENT, READY, NONE, "not-ready"),
        new NotReadyCase(notReady, true, WANT_ON, ON_, NOT_READY, READY, NONE, null), // said once
        new NotReadyCase(
            remediation.minusSeconds(1), true, WANT_ON, ON_, NOT_READY, READY, NONE, null),
        new NotReadyCase(
            remediation, true, WANT_ON, ON_, NOT_READY, JOINING, POWER_CYCLE, "power-cycle"),
        new NotReadyCase(
            remediation, true, WANT_ON, ON_, ABSENT, JOINING, POWER_CYCLE, "power-cycle"),
        // never while the BMC is transitioning or unknown, nor while Kubernetes cannot be seen
        new NotReadyCase(remediation, true, WANT_ON, DOWN, NOT_READY, READY, NONE, null),
        new NotReadyCase(remediation, true, WANT_ON, UNK, NOT_READY, READY, NONE, null),
        new NotReadyCase(remediation, true, WANT_ON, ON_, DOWN_K8S, READY, NONE, null),
        // Ready again: healthy (an event and "recovered" only if it had stopped counting)
        new NotReadyCase(remediation, true, WANT_ON, ON_, READY_EMPTY, READY, NONE, "recovered"),
        new NotReadyCase(before, false, WANT_ON, ON_, READY_EMPTY, READY, NONE, null),
        // desired off wins: drained as before
        new NotReadyCase(remediation, true, WANT_OFF, ON_, NOT_READY, DRAINING, DRAIN, null),
        // the BMC reports off: drift as before
        new NotReadyCase(remediation, true, WANT_ON, OFF_, NOT_READY, POWERING_ON, POWER_ON, null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("notReadyTable")
  void aReadyNodeNotReadyInKubernetesStopsCountingThenIsCycledOnce(NotReadyCase c) {
    NodeStatus before = notReadyFor(c.down(), c.marked());
    Decision d = decide(spec(c.desired()), before, c.power(), c.kube());
    assertThat(d.next().state()).as("state").isEqualTo(c.to());
    assertThat(d.action().verb()).as("action").isEqualTo(c.action());
    assertThat(NodeStateMachine.remediation(before, d))
        .as("remediation")
        .isEqualTo(c.remediation());
    boolean seenNotReady = c.kube() == NOT_READY || c.kube() == ABSENT;
    if (c.to() == READY && seenNotReady) {
      assertThat(d.next().notReadySince())
          .as("timed from the first sighting")
          .isEqualTo(c.down() == null ? T0 : T0.minus(c.down()));
    }
    if (c.kube() == READY_EMPTY) {
      assertThat(d.next().notReadySince()).as("cleared").isNull();
      assertThat(d.next().lastError()).isNull();
    }
    if ("not-ready".equals(c.remediation())) {
      assertThat(d.next().lastError()).startsWith(Transitions.NOT_CAPACITY).contains("5m");
      assertThat(d.event().from()).isEqualTo(READY);
      assertThat(d.event().to()).isEqualTo(READY);
    } else if (c.action() == NONE && c.to() == READY && c.remediation() == null) {
      assertThat(d.event()).as("nothing new to say").isNull();
    }
    if (c.action() == POWER_CYCLE) {
      assertThat(d.next().powerCycled()).isTrue();
      assertThat(d.next().lastPowerAction()).isEqualTo(PowerAction.POWER_CYCLE);
      assertThat(d.next().timerStarted()).as("the join timer starts").isEqualTo(T0);
      assertThat(d.event().reason()).contains("15m").contains("power cycle");
    }
  }

  @Test
  void aRemediatedNodeIsAnErrorWhenNotReadyWithinTheJoinTimeoutAndHealthyWhenReady() {
    Decision cycle =
        decide(spec(WANT_ON), notReadyFor(TIMEOUTS.remediation(), true), ON_, NOT_READY);
    NodeStatus joining = cycle.next();
    Observation late =
        new Observation(
            spec(WANT_ON),
            7,
            joining,
            PowerReading.of(ON_),
            NOT_READY,
            TIMEOUTS,
            Map.of(),
            T0.plus(LATE_JOIN));
    Decision error = NodeStateMachine.decide(late);
    assertThat(error.next().state()).isEqualTo(ERROR);
    assertThat(error.action().verb()).as("no second cycle").isEqualTo(NONE);
    assertThat(NodeStateMachine.remediation(joining, error)).isEqualTo("error");

    Decision back = decide(spec(WANT_ON), joining, ON_, READY_EMPTY);
    assertThat(back.next().state()).isEqualTo(READY);
    assertThat(back.next().notReadySince()).isNull();
    assertThat(back.next().powerCycled()).isNull();
    assertThat(NodeStateMachine.remediation(joining, back)).isEqualTo("recovered");
  }

  @Test
  void aPoolsNotReadyAndRemediationTimeoutsDecide() {
    NodeTimeouts quick = TIMEOUTS.withNotReady(Duration.ofMinutes(1), Duration.ofMinutes(2));
    NodeStatus down = notReadyFor(Duration.ofMinutes(1), false);
    assertThat(
            NodeStateMachine.remediation(down, decide(quick, spec(WANT_ON), down, ON_, NOT_READY)))
        .isEqualTo("not-ready");
    NodeStatus longer = notReadyFor(Duration.ofMinutes(2), true);
    assertThat(decide(quick, spec(WANT_ON), longer, ON_, NOT_READY).action().verb())
        .isEqualTo(POWER_CYCLE);
  }

  // ------------------------------------------------------------------ power-on after a restart

  /**
   * One row: powering on, the power-on written ahead {@code sinceWrite} ago (first sent {@code
   * sinceTimer} ago), the last observation {@code seen}, the BMC now -> state, action.
   */
  record ConfirmCase(
      Duration sinceTimer,
      Duration sinceWrite,
      ObservedPower seen,
      BmcPowerState power,
      NodeState to,
      Enum<?> action) {}

  static NodeStatus poweringOn(Duration sinceTimer, Duration sinceWrite, ObservedPower seen) {
    return NodeStatus.builder()
        .state(POWERING_ON)
        .stateSince(T0.minus(sinceTimer))
        .observedPower(seen)
        .lastPowerAction(PowerAction.POWER_ON)
        .powerActionTime(T0.minus(sinceWrite))
        .timerStarted(T0.minus(sinceTimer))
        .timerElapsed(Duration.ZERO)
        .build();
  }

  static Stream<ConfirmCase> confirmTable() {
    Duration w = TIMEOUTS.powerOnConfirm();
    Duration early = w.minusSeconds(1);
    ObservedPower off = ObservedPower.OFF;
    return Stream.of(
        new ConfirmCase(early, early, off, OFF_, POWERING_ON, NONE),
        new ConfirmCase(w, w, off, OFF_, POWERING_ON, POWER_ON),
        // never while the BMC reports on, transitioning or unknown, nor on one look only
        new ConfirmCase(w, w, off, ON_, JOINING, NONE),
        new ConfirmCase(w, w, off, UP, POWERING_ON, NONE),
        new ConfirmCase(w, w, off, UNK, POWERING_ON, NONE),
        new ConfirmCase(w, w, ObservedPower.UNKNOWN, OFF_, POWERING_ON, NONE),
        // once: sent again 2 min ago, still off
        new ConfirmCase(Duration.ofMinutes(3), Duration.ofMinutes(2), off, OFF_, POWERING_ON, NONE),
        // the power-on timeout still runs from the first
        new ConfirmCase(LATE_ON, LATE_ON, off, OFF_, ERROR, NONE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("confirmTable")
  void aPowerOnTheBmcNeverGotIsSentAgainOnceAfterTheConfirmationWindow(ConfirmCase c) {
    NodeStatus before = poweringOn(c.sinceTimer(), c.sinceWrite(), c.seen());
    Decision d = decide(spec(WANT_ON), before, c.power(), ABSENT);
    assertThat(d.next().state()).as("state").isEqualTo(c.to());
    assertThat(d.action().verb()).as("action").isEqualTo(c.action());
    if (c.action() == POWER_ON) {
      assertThat(d.next().powerActionTime()).as("written ahead").isEqualTo(T0);
      assertThat(d.next().timerStarted()).as("timer kept").isEqualTo(before.timerStarted());
      assertThat(d.event().result()).isEqualTo("requested");
      assertThat(d.event().reason()).contains("sending it again");
      // and only once: the next look, still off, waits for the power-on timeout
      Observation next =
          new Observation(
              spec(WANT_ON),
              7,
              d.next(),
              PowerReading.of(OFF_),
              ABSENT,
              TIMEOUTS,
              Map.of(),
              T0.plus(TIMEOUTS.powerOnConfirm()));
      assertThat(NodeStateMachine.decide(next).action().verb()).isEqualTo(NONE);
    }
  }

  @Test
  void theConfirmationWindowIsConfigurable() {
    NodeTimeouts quick = TIMEOUTS.withPowerOnConfirm(Duration.ofSeconds(5));
    NodeStatus s = poweringOn(Duration.ofSeconds(5), Duration.ofSeconds(5), ObservedPower.OFF);
    assertThat(decide(quick, spec(WANT_ON), s, OFF_, ABSENT).action().verb()).isEqualTo(POWER_ON);
    assertThat(decide(spec(WANT_ON), s, OFF_, ABSENT).action().verb()).isEqualTo(NONE);
  }
}
