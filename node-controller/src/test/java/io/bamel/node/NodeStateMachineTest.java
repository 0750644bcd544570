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
    return KubePod.builder()
        .ref(new PodRef("apps", name))
        .nodeName("n1")
        .phase("Running")
        .scheduled(true)
        .ownerKind(owner)
        .annotations(doNotDisrupt ? Map.of(Cluster.DO_NOT_DISRUPT, "true") : Map.of())
        .build();
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
    return look(status)
        .spec(spec)
        .power(power)
        .kube(kube)
        .timeouts(timeouts)
        .poolLabels(Map.of("tier", "2"))
        .decide();
  }

  /** An observation of {@code status} to decide on, with the defaults of {@link Look}. */
  static Look look(NodeStatus status) {
    return new Look(status);
  }

  /**
   * An observation of node n1: what a test leaves out takes its default (desired on, spec revision
   * 7, the BMC on, no Kubernetes node, the default timeouts, no pool labels, at {@link #T0}).
   */
  static final class Look {
    private final NodeStatus status;
    private NodeSpec spec = NodeStateMachineTest.spec(WANT_ON);
    private long specRevision = 7;
    private PowerReading power = PowerReading.of(ON_);
    private KubeView kube = ABSENT;
    private NodeTimeouts timeouts = TIMEOUTS;
    private Map<String, String> poolLabels = Map.of();
    private Instant now = T0;

    private Look(NodeStatus status) {
      this.status = status;
    }

    Look want(DesiredPower desired) {
      return spec(NodeStateMachineTest.spec(desired));
    }

    Look spec(NodeSpec spec) {
      this.spec = spec;
      return this;
    }

    Look specRevision(long specRevision) {
      this.specRevision = specRevision;
      return this;
    }

    Look power(BmcPowerState power) {
      return power(PowerReading.of(power));
    }

    Look power(PowerReading power) {
      this.power = power;
      return this;
    }

    Look kube(KubeView kube) {
      this.kube = kube;
      return this;
    }

    Look timeouts(NodeTimeouts timeouts) {
      this.timeouts = timeouts;
      return this;
    }

    Look poolLabels(Map<String, String> poolLabels) {
      this.poolLabels = poolLabels;
      return this;
    }

    Look at(Instant now) {
      this.now = now;
      return this;
    }

    Decision decide() {
      return NodeStateMachine.decide(
          new Observation(spec, specRevision, status, power, kube, timeouts, poolLabels, now));
    }
  }

  // ------------------------------------------------------------------ the table

  /**
   * What the tables' rows name: desired power, the BMC's answer and Kubernetes, then the expected
   * state, action and drift. A row leaves out what takes its table's default (desired on, the BMC
   * on, no Kubernetes node, no drift, unless the table says otherwise).
   */
  abstract static class Row<R extends Row<R>> {
    DesiredPower desired = WANT_ON;
    BmcPowerState power = ON_;
    KubeView kube = ABSENT;
    NodeState to;
    Enum<?> action;
    Drift drift;

    @SuppressWarnings("unchecked")
    private R self() {
      return (R) this;
    }

    R want(DesiredPower desired) {
      this.desired = desired;
      return self();
    }

    R bmc(BmcPowerState power) {
      this.power = power;
      return self();
    }

    R kube(KubeView kube) {
      this.kube = kube;
      return self();
    }

    R expect(NodeState to, Enum<?> action) {
      this.to = to;
      this.action = action;
      return self();
    }

    R drift(Drift drift) {
      this.drift = drift;
      return self();
    }
  }

  /**
   * One row: from state (elapsed in it), desired, BMC, Kubernetes -> state, action, drift. A row
   * names each of them but the time in the state ({@link #JUST} unless {@link #after}) and the
   * drift (none unless {@link #drift}).
   */
  static final class Case extends Row<Case> {
    private final NodeState from;
    private Duration elapsed = JUST;

    private Case(NodeState from) {
      this.from = from;
    }

    Case after(Duration elapsed) {
      this.elapsed = elapsed;
      return this;
    }

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

  static Case in(NodeState from) {
    return new Case(from);
  }

  static final DesiredPower WANT_ON = DesiredPower.ON;
  static final DesiredPower WANT_OFF = DesiredPower.OFF;

  static Stream<Case> table() {
    List<Case> t = new ArrayList<>();
    // unknown: adopt what the BMC and Kubernetes show
    t.add(in(UNKNOWN).want(WANT_ON).bmc(OFF_).kube(READY_EMPTY).expect(OFF, NONE));
    t.add(in(UNKNOWN).want(WANT_ON).bmc(ON_).kube(READY_EMPTY).expect(READY, LABEL));
    t.add(in(UNKNOWN).want(WANT_ON).bmc(ON_).kube(NO_K8S).expect(READY, NONE));
    t.add(in(UNKNOWN).want(WANT_ON).bmc(ON_).kube(NOT_READY).expect(JOINING, NONE));
    t.add(in(UNKNOWN).want(WANT_ON).bmc(ON_).kube(ABSENT).expect(JOINING, NONE));
    t.add(in(UNKNOWN).want(WANT_ON).bmc(ON_).kube(DOWN_K8S).expect(JOINING, NONE));
    t.add(in(UNKNOWN).want(WANT_OFF).bmc(ON_).kube(READY_BUSY).expect(READY, LABEL));
    t.add(in(UNKNOWN).want(WANT_ON).bmc(UP).kube(ABSENT).expect(POWERING_ON, NONE));
    t.add(in(UNKNOWN).want(WANT_OFF).bmc(DOWN).kube(ABSENT).expect(POWERING_OFF, NONE));
    t.add(in(UNKNOWN).want(WANT_OFF).bmc(UNK).kube(ABSENT).expect(UNKNOWN, NONE));
    // off
    t.add(in(OFF).want(WANT_OFF).bmc(OFF_).kube(READY_EMPTY).expect(OFF, NONE));
    t.add(in(OFF).want(WANT_ON).bmc(OFF_).kube(ABSENT).expect(POWERING_ON, POWER_ON));
    t.add(
        in(OFF)
            .want(WANT_ON)
            .bmc(OFF_)
            .kube(DOWN_K8S)
            .expect(POWERING_ON, POWER_ON)); // power-on goes on
    t.add(in(OFF).want(WANT_ON).bmc(OFF_).kube(NO_K8S).expect(POWERING_ON, POWER_ON));
    t.add(in(OFF).want(WANT_ON).bmc(UNK).kube(NO_K8S).expect(POWERING_ON, POWER_ON));
    t.add(in(OFF).want(WANT_ON).bmc(ON_).kube(NOT_READY).expect(JOINING, NONE));
    t.add(in(OFF).want(WANT_ON).bmc(ON_).kube(READY_EMPTY).expect(READY, LABEL));
    t.add(in(OFF).want(WANT_ON).bmc(UP).kube(ABSENT).expect(POWERING_ON, NONE));
    t.add(in(OFF).want(WANT_OFF).bmc(DOWN).kube(ABSENT).expect(OFF, NONE));
    // drift: on while it should be off
    t.add(
        in(OFF)
            .want(WANT_OFF)
            .bmc(ON_)
            .kube(NO_K8S)
            .expect(POWERING_OFF, POWER_OFF)
            .drift(Drift.UNEXPECTED_ON));
    t.add(
        in(OFF)
            .want(WANT_OFF)
            .bmc(ON_)
            .kube(ABSENT)
            .expect(POWERING_OFF, POWER_OFF)
            .drift(Drift.UNEXPECTED_ON));
    t.add(
        in(OFF)
            .want(WANT_OFF)
            .bmc(ON_)
            .kube(READY_EMPTY)
            .expect(POWERING_OFF, POWER_OFF)
            .drift(Drift.UNEXPECTED_ON));
    t.add(
        in(OFF)
            .want(WANT_OFF)
            .bmc(ON_)
            .kube(READY_DAEMONS)
            .expect(POWERING_OFF, POWER_OFF)
            .drift(Drift.UNEXPECTED_ON));
    t.add(
        in(OFF)
            .want(WANT_OFF)
            .bmc(ON_)
            .kube(READY_BUSY)
            .expect(ERROR, NONE)
            .drift(Drift.UNEXPECTED_ON));
    t.add(
        in(OFF)
            .want(WANT_OFF)
            .bmc(ON_)
            .kube(DOWN_K8S)
            .expect(ERROR, NONE)
            .drift(Drift.UNEXPECTED_ON));
    // powering-on
    t.add(in(POWERING_ON).want(WANT_ON).bmc(OFF_).kube(ABSENT).expect(POWERING_ON, NONE));
    t.add(in(POWERING_ON).want(WANT_ON).bmc(UP).kube(ABSENT).expect(POWERING_ON, NONE));
    t.add(in(POWERING_ON).want(WANT_ON).bmc(ON_).kube(ABSENT).expect(JOINING, NONE));
    t.add(in(POWERING_ON).want(WANT_ON).bmc(ON_).kube(NO_K8S).expect(READY, NONE));
    t.add(in(POWERING_ON).after(LATE_ON).want(WANT_ON).bmc(OFF_).kube(ABSENT).expect(ERROR, NONE));
    t.add(in(POWERING_ON).after(LATE_ON).want(WANT_ON).bmc(ON_).kube(ABSENT).expect(JOINING, NONE));
    t.add(in(POWERING_ON).want(WANT_OFF).bmc(UP).kube(ABSENT).expect(POWERING_OFF, POWER_OFF));
    t.add(in(POWERING_ON).want(WANT_OFF).bmc(OFF_).kube(ABSENT).expect(POWERING_OFF, POWER_OFF));
    // on already though desired off now: it may have joined, so through joining (then drained)
    t.add(in(POWERING_ON).want(WANT_OFF).bmc(ON_).kube(ABSENT).expect(JOINING, NONE));
    t.add(in(POWERING_ON).want(WANT_OFF).bmc(ON_).kube(READY_BUSY).expect(JOINING, NONE));
    t.add(in(POWERING_ON).want(WANT_OFF).bmc(ON_).kube(DOWN_K8S).expect(JOINING, NONE));
    t.add(in(POWERING_ON).want(WANT_OFF).bmc(ON_).kube(NO_K8S).expect(READY, NONE));
    // joining
    t.add(in(JOINING).want(WANT_ON).bmc(ON_).kube(ABSENT).expect(JOINING, NONE));
    t.add(in(JOINING).want(WANT_ON).bmc(ON_).kube(NOT_READY).expect(JOINING, NONE));
    t.add(in(JOINING).want(WANT_ON).bmc(ON_).kube(READY_EMPTY).expect(READY, ADMIT));
    t.add(in(JOINING).want(WANT_ON).bmc(ON_).kube(NO_K8S).expect(READY, NONE));
    t.add(
        in(JOINING)
            .after(LATE_JOIN)
            .want(WANT_ON)
            .bmc(ON_)
            .kube(NOT_READY)
            .expect(JOINING, POWER_CYCLE));
    t.add(
        in(JOINING)
            .after(LATE_JOIN)
            .want(WANT_ON)
            .bmc(ON_)
            .kube(ABSENT)
            .expect(JOINING, POWER_CYCLE));
    t.add(
        in(JOINING).after(LATE_JOIN).want(WANT_ON).bmc(ON_).kube(READY_EMPTY).expect(READY, ADMIT));
    t.add(
        in(JOINING)
            .after(LATE_JOIN)
            .want(WANT_ON)
            .bmc(ON_)
            .kube(DOWN_K8S)
            .expect(JOINING, NONE)); // paused
    t.add(
        in(JOINING)
            .want(WANT_ON)
            .bmc(OFF_)
            .kube(ABSENT)
            .expect(POWERING_ON, POWER_ON)
            .drift(Drift.UNEXPECTED_OFF));
    t.add(in(JOINING).want(WANT_OFF).bmc(OFF_).kube(ABSENT).expect(OFF, NONE));
    t.add(in(JOINING).want(WANT_OFF).bmc(ON_).kube(NOT_READY).expect(DRAINING, DRAIN));
    t.add(in(JOINING).want(WANT_OFF).bmc(ON_).kube(NO_K8S).expect(POWERING_OFF, POWER_OFF));
    t.add(in(JOINING).want(WANT_OFF).bmc(ON_).kube(ABSENT).expect(DRAINING, NONE));
    t.add(
        in(JOINING)
            .want(WANT_OFF)
            .bmc(ON_)
            .kube(DOWN_K8S)
            .expect(JOINING, NONE)); // never drain unseen
    t.add(
        in(JOINING)
            .after(LATE_JOIN)
            .want(WANT_OFF)
            .bmc(ON_)
            .kube(DOWN_K8S)
            .expect(JOINING, NONE)); // nor cycle
    // ready
    t.add(in(READY).want(WANT_ON).bmc(ON_).kube(READY_EMPTY).expect(READY, NONE));
    // NotReady or gone, first seen now: still ready and capacity, timed from now (it no longer
    // stays ready forever: notReadyTable has the not-ready and remediation timeouts)
    t.add(in(READY).want(WANT_ON).bmc(ON_).kube(NOT_READY).expect(READY, NONE));
    t.add(in(READY).want(WANT_ON).bmc(ON_).kube(ABSENT).expect(READY, NONE));
    t.add(in(READY).want(WANT_ON).bmc(ON_).kube(DOWN_K8S).expect(READY, NONE));
    t.add(
        in(READY)
            .want(WANT_ON)
            .bmc(OFF_)
            .kube(READY_EMPTY)
            .expect(POWERING_ON, POWER_ON)
            .drift(Drift.UNEXPECTED_OFF));
    t.add(
        in(READY)
            .want(WANT_ON)
            .bmc(OFF_)
            .kube(NO_K8S)
            .expect(POWERING_ON, POWER_ON)
            .drift(Drift.UNEXPECTED_OFF));
    t.add(in(READY).want(WANT_OFF).bmc(ON_).kube(READY_BUSY).expect(DRAINING, DRAIN));
    t.add(in(READY).want(WANT_OFF).bmc(ON_).kube(READY_EMPTY).expect(DRAINING, DRAIN));
    // a node not in Kubernetes has nothing to cordon; the next look switches it off
    t.add(in(READY).want(WANT_OFF).bmc(ON_).kube(ABSENT).expect(DRAINING, NONE));
    t.add(
        in(READY).want(WANT_OFF).bmc(ON_).kube(DOWN_K8S).expect(READY, NONE)); // never drain unseen
    t.add(in(READY).want(WANT_OFF).bmc(ON_).kube(NO_K8S).expect(POWERING_OFF, POWER_OFF));
    t.add(in(READY).want(WANT_OFF).bmc(OFF_).kube(READY_EMPTY).expect(OFF, NONE));
    // draining
    t.add(in(DRAINING).want(WANT_OFF).bmc(ON_).kube(READY_BUSY).expect(DRAINING, DRAIN));
    t.add(in(DRAINING).want(WANT_OFF).bmc(ON_).kube(READY_DAEMONS).expect(POWERING_OFF, POWER_OFF));
    t.add(in(DRAINING).want(WANT_OFF).bmc(ON_).kube(READY_EMPTY).expect(POWERING_OFF, POWER_OFF));
    t.add(in(DRAINING).want(WANT_OFF).bmc(ON_).kube(ABSENT).expect(POWERING_OFF, POWER_OFF));
    t.add(in(DRAINING).want(WANT_OFF).bmc(ON_).kube(DOWN_K8S).expect(DRAINING, NONE));
    t.add(
        in(DRAINING)
            .after(LATE_DRAIN)
            .want(WANT_OFF)
            .bmc(ON_)
            .kube(DOWN_K8S)
            .expect(DRAINING, NONE)); // paused
    t.add(
        in(DRAINING)
            .after(LATE_DRAIN)
            .want(WANT_OFF)
            .bmc(ON_)
            .kube(CORDONED_BUSY)
            .expect(ERROR, NONE));
    t.add(in(DRAINING).want(WANT_ON).bmc(ON_).kube(READY_BUSY).expect(READY, UNCORDON));
    t.add(in(DRAINING).want(WANT_ON).bmc(ON_).kube(ABSENT).expect(READY, NONE));
    t.add(in(DRAINING).want(WANT_OFF).bmc(OFF_).kube(READY_BUSY).expect(OFF, NONE));
    t.add(in(DRAINING).want(WANT_ON).bmc(OFF_).kube(READY_BUSY).expect(POWERING_ON, POWER_ON));
    // powering-off
    t.add(in(POWERING_OFF).want(WANT_OFF).bmc(ON_).kube(ABSENT).expect(POWERING_OFF, NONE));
    t.add(in(POWERING_OFF).want(WANT_OFF).bmc(DOWN).kube(ABSENT).expect(POWERING_OFF, NONE));
    t.add(in(POWERING_OFF).want(WANT_OFF).bmc(OFF_).kube(ABSENT).expect(OFF, NONE));
    t.add(in(POWERING_OFF).want(WANT_ON).bmc(OFF_).kube(ABSENT).expect(OFF, NONE));
    t.add(
        in(POWERING_OFF)
            .after(LATE_OFF)
            .want(WANT_OFF)
            .bmc(ON_)
            .kube(ABSENT)
            .expect(POWERING_OFF, POWER_OFF_FORCE));
    // error: retries and leaves by itself when the cause is gone
    t.add(in(ERROR).want(WANT_ON).bmc(OFF_).kube(ABSENT).expect(POWERING_ON, POWER_ON));
    t.add(in(ERROR).want(WANT_ON).bmc(UP).kube(ABSENT).expect(POWERING_ON, NONE));
    t.add(in(ERROR).want(WANT_ON).bmc(ON_).kube(READY_EMPTY).expect(READY, ADMIT));
    t.add(in(ERROR).want(WANT_ON).bmc(ON_).kube(NO_K8S).expect(READY, NONE));
    t.add(in(ERROR).want(WANT_ON).bmc(ON_).kube(NOT_READY).expect(JOINING, NONE));
    t.add(in(ERROR).want(WANT_ON).bmc(ON_).kube(DOWN_K8S).expect(ERROR, NONE));
    t.add(in(ERROR).want(WANT_OFF).bmc(OFF_).kube(READY_BUSY).expect(OFF, NONE));
    t.add(in(ERROR).want(WANT_OFF).bmc(DOWN).kube(ABSENT).expect(POWERING_OFF, NONE));
    t.add(in(ERROR).want(WANT_OFF).bmc(ON_).kube(READY_EMPTY).expect(POWERING_OFF, POWER_OFF));
    t.add(in(ERROR).want(WANT_OFF).bmc(ON_).kube(ABSENT).expect(POWERING_OFF, POWER_OFF));
    t.add(in(ERROR).want(WANT_OFF).bmc(ON_).kube(NO_K8S).expect(POWERING_OFF, POWER_OFF));
    t.add(in(ERROR).want(WANT_OFF).bmc(ON_).kube(DOWN_K8S).expect(ERROR, NONE));
    t.add(
        in(ERROR)
            .want(WANT_OFF)
            .bmc(ON_)
            .kube(CORDONED_BUSY)
            .expect(ERROR, DRAIN)); // our drain: keep evicting
    t.add(
        in(ERROR)
            .want(WANT_OFF)
            .bmc(ON_)
            .kube(READY_BUSY)
            .expect(ERROR, NONE)); // not ours: never evict
    return t.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("table")
  void transitions(Case c) {
    Decision d = decide(spec(c.desired), status(c.from, c.elapsed), c.power, c.kube);
    assertThat(d.next().state()).as("state").isEqualTo(c.to);
    assertThat(d.action().verb()).as("action").isEqualTo(c.action);
    assertThat(d.drift()).as("drift").isEqualTo(c.drift);
    if (d.next().state() != c.from) {
      assertThat(d.event()).as("every transition has an event").isNotNull();
      assertThat(d.event().from()).isEqualTo(c.from);
      assertThat(d.event().to()).isEqualTo(c.to);
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
    table().forEach(c -> covered.add(c.from));
    assertThat(covered).containsExactlyInAnyOrder(NodeState.values());
  }

  // ------------------------------------------------------------------ bamel's own power cycle

  /**
   * Joining after bamel's power cycle (the join timed out): {@code since} the cycle was requested,
   * the BMC answers {@code power}, and the one before it saw {@code seen}. What a row leaves out
   * takes its default: desired on, NotReady in Kubernetes, no drift.
   */
  static final class CycleCase extends Row<CycleCase> {
    private final Duration since;
    private ObservedPower seen;

    private CycleCase(Duration since) {
      this.since = since;
      this.kube = NOT_READY;
    }

    /** The BMC's answer now and the power seen at the look before. */
    CycleCase bmc(BmcPowerState power, ObservedPower seen) {
      this.power = power;
      this.seen = seen;
      return this;
    }

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

  static CycleCase cycleAgo(Duration since) {
    return new CycleCase(since);
  }

  static Stream<CycleCase> cycleTable() {
    Duration late = TIMEOUTS.powerOn().plusSeconds(1);
    Duration edge = TIMEOUTS.powerOn();
    ObservedPower on = ObservedPower.ON;
    ObservedPower off = ObservedPower.OFF;
    return Stream.of(
        // the cycle passes through off: expected, waited out (no power-on, no drift)
        cycleAgo(JUST).bmc(OFF_, on).expect(JOINING, NONE),
        cycleAgo(JUST).bmc(OFF_, off).kube(ABSENT).expect(JOINING, NONE),
        cycleAgo(JUST).bmc(OFF_, on).kube(DOWN_K8S).expect(JOINING, NONE),
        cycleAgo(JUST).bmc(OFF_, on).kube(NO_K8S).expect(JOINING, NONE),
        cycleAgo(edge).bmc(OFF_, off).expect(JOINING, NONE),
        // still off past the power-on timeout: the cycle failed (error, whose retry powers on)
        cycleAgo(late).bmc(OFF_, off).expect(ERROR, NONE),
        // off again after it was seen on, past the window: switched off from outside
        cycleAgo(late).bmc(OFF_, on).expect(POWERING_ON, POWER_ON).drift(Drift.UNEXPECTED_OFF),
        // coming back
        cycleAgo(JUST).bmc(UP, off).expect(JOINING, NONE),
        cycleAgo(JUST).bmc(ON_, off).expect(JOINING, NONE),
        cycleAgo(JUST).bmc(ON_, off).kube(READY_EMPTY).expect(READY, ADMIT),
        // desired off meanwhile: off is where it should be
        cycleAgo(JUST).want(WANT_OFF).bmc(OFF_, on).expect(OFF, NONE));
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
    Decision d = decide(spec(c.desired), cycled(c.since, c.seen), c.power, c.kube);
    assertThat(d.next().state()).as("state").isEqualTo(c.to);
    assertThat(d.action().verb()).as("action").isEqualTo(c.action);
    assertThat(d.drift()).as("drift").isEqualTo(c.drift);
    if (c.to == JOINING) {
      assertThat(d.event()).as("nothing to record").isNull();
      assertThat(d.next().lastPowerAction()).isEqualTo(PowerAction.POWER_CYCLE);
    }
    if (c.to == ERROR) {
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

  /**
   * One row under {@link #CUSTOM}: a node in {@code from} for {@code elapsed} (after a power-on),
   * desired, BMC, Kubernetes -> state, action and the error text it starts with; a field left out
   * takes its default (desired on, the BMC on, no Kubernetes node, no action, no error).
   */
  static final class TimeoutCase extends Row<TimeoutCase> {
    private final NodeState from;
    private final Duration elapsed;
    private String error;

    private TimeoutCase(NodeState from, Duration elapsed) {
      this.from = from;
      this.elapsed = elapsed;
    }

    TimeoutCase error(String error) {
      this.error = error;
      return this;
    }

    @Override
    public String toString() {
      return from + "+" + elapsed.toSeconds() + "s bmc=" + power + " -> " + to + " " + action;
    }
  }

  static TimeoutCase inState(NodeState from, Duration elapsed) {
    return new TimeoutCase(from, elapsed);
  }

  static Stream<TimeoutCase> customTimeouts() {
    Duration s = Duration.ofSeconds(1);
    return Stream.of(
        inState(POWERING_ON, CUSTOM.powerOn()).bmc(OFF_).expect(POWERING_ON, NONE),
        inState(POWERING_ON, CUSTOM.powerOn().plus(s))
            .bmc(OFF_)
            .expect(ERROR, NONE)
            .error("BMC still reports off 1m30s after power-on was requested"),
        inState(JOINING, CUSTOM.join()).kube(NOT_READY).expect(JOINING, NONE),
        inState(JOINING, CUSTOM.join().plus(s)).kube(NOT_READY).expect(JOINING, POWER_CYCLE),
        inState(DRAINING, CUSTOM.drain())
            .want(WANT_OFF)
            .kube(CORDONED_BUSY)
            .expect(DRAINING, DRAIN),
        inState(DRAINING, CUSTOM.drain().plus(s))
            .want(WANT_OFF)
            .kube(CORDONED_BUSY)
            .expect(ERROR, NONE)
            .error("drain did not finish within 2m"),
        inState(POWERING_OFF, CUSTOM.powerOff()).want(WANT_OFF).expect(POWERING_OFF, NONE),
        inState(POWERING_OFF, CUSTOM.powerOff().plus(s))
            .want(WANT_OFF)
            .expect(POWERING_OFF, POWER_OFF_FORCE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("customTimeouts")
  void nonDefaultTimeoutsAreTheOnesThatCount(TimeoutCase c) {
    NodeStatus s =
        status(c.from, c.elapsed).toBuilder().lastPowerAction(PowerAction.POWER_ON).build();
    Decision d = decide(CUSTOM, spec(c.desired), s, c.power, c.kube);
    assertThat(d.next().state()).as("state").isEqualTo(c.to);
    assertThat(d.action().verb()).as("action").isEqualTo(c.action);
    if (c.error != null) {
      assertThat(d.next().lastError()).startsWith(c.error);
    }
    // every custom value is shorter than the default: the defaults would still be waiting
    Decision byDefault = decide(TIMEOUTS, spec(c.desired), s, c.power, c.kube);
    assertThat(byDefault.next().state()).isEqualTo(c.from);
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

    Decision later = look(paused.next()).kube(DOWN_K8S).at(T0.plus(Duration.ofHours(1))).decide();
    assertThat(later.next().state()).isEqualTo(JOINING);
    assertThat(later.action().verb()).isEqualTo(NONE);

    // back: the timer resumes from 15 min, so 4 min later it has not expired, 6 min later it has
    Instant back = T0.plus(Duration.ofHours(1));
    Decision resumed = look(paused.next()).kube(NOT_READY).at(back).decide();
    assertThat(resumed.next().timerStarted()).isEqualTo(back);
    assertThat(resumed.action().verb()).isEqualTo(NONE);
    Decision at4 =
        look(resumed.next()).kube(NOT_READY).at(back.plus(Duration.ofMinutes(4))).decide();
    assertThat(at4.action().verb()).isEqualTo(NONE);
    Decision at6 =
        look(resumed.next()).kube(NOT_READY).at(back.plus(Duration.ofMinutes(6))).decide();
    assertThat(at6.action().verb()).isEqualTo(POWER_CYCLE);
  }

  @Test
  void aDrainEvictsWorkloadsButSkipsDaemonSetsMirrorsAndProtectedPods() {
    KubePod mirror =
        KubePod.builder()
            .ref(new PodRef("kube-system", "etcd-n1"))
            .nodeName("n1")
            .phase("Running")
            .scheduled(true)
            .ownerKind("Node")
            .annotations(Map.of(Cluster.MIRROR_POD, "x"))
            .build();
    KubePod done =
        KubePod.builder()
            .ref(new PodRef("apps", "job-1"))
            .nodeName("n1")
            .phase("Succeeded")
            .scheduled(true)
            .ownerKind("Job")
            .build();
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
        look(ready)
            .want(WANT_OFF)
            .power(PowerReading.failed("UNREACHABLE: refused"))
            .kube(READY_BUSY)
            .decide();
    assertThat(d.next().state()).isEqualTo(READY);
    assertThat(d.action().verb()).isEqualTo(NONE);
    assertThat(d.next().bmcReachable()).isFalse();
    assertThat(d.next().lastError()).contains("refused");
    Decision timedOut =
        look(status(POWERING_ON, LATE_ON)).power(PowerReading.failed("TIMEOUT: slow")).decide();
    assertThat(timedOut.next().state()).isEqualTo(ERROR);
    // it answers again: the BMC error is cleared
    Decision back = decide(spec(WANT_OFF), d.next(), ON_, DOWN_K8S);
    assertThat(back.next().bmcReachable()).isTrue();
    assertThat(back.next().lastError()).isNull();
  }

  @Test
  void aNodeWithoutStatusStartsFromUnknown() {
    Decision d = look(null).specRevision(3).power(OFF_).kube(NO_K8S).decide();
    assertThat(d.next().state()).isEqualTo(OFF);
    assertThat(d.event().from()).isEqualTo(UNKNOWN);
  }

  @Test
  void theSameObservationGivesTheSameDecision() {
    table()
        .forEach(
            c -> {
              NodeStatus s = status(c.from, c.elapsed);
              assertThat(decide(spec(c.desired), s, c.power, c.kube))
                  .isEqualTo(decide(spec(c.desired), s, c.power, c.kube));
            });
  }

  // ------------------------------------------------------------------ NotReady, remediation

  /**
   * One row: a ready node NotReady for {@code down} (null: first seen now; {@code marked}: the
   * not-capacity step was taken), desired, BMC, Kubernetes -> state, action, the remediation step.
   * What a row leaves out takes its default: not marked, desired on, the BMC on, NotReady in
   * Kubernetes; its expectation is always given.
   */
  static final class NotReadyCase extends Row<NotReadyCase> {
    private final Duration down;
    private boolean marked;
    private String remediation;

    private NotReadyCase(Duration down) {
      this.down = down;
      this.kube = NOT_READY;
    }

    NotReadyCase marked() {
      this.marked = true;
      return this;
    }

    /** Still ready, no action, no remediation step unless {@link #remediation} says one. */
    NotReadyCase staysReady() {
      return expect(READY, NONE);
    }

    NotReadyCase remediation(String remediation) {
      this.remediation = remediation;
      return this;
    }

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

  static NotReadyCase downFor(Duration down) {
    return new NotReadyCase(down);
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
        downFor(null).staysReady(),
        downFor(before).staysReady(),
        downFor(notReady).staysReady().remediation("not-ready"),
        downFor(notReady).kube(ABSENT).staysReady().remediation("not-ready"),
        downFor(notReady).marked().staysReady(), // said once
        downFor(remediation.minusSeconds(1)).marked().staysReady(),
        downFor(remediation).marked().expect(JOINING, POWER_CYCLE).remediation("power-cycle"),
        downFor(remediation)
            .marked()
            .kube(ABSENT)
            .expect(JOINING, POWER_CYCLE)
            .remediation("power-cycle"),
        // never while the BMC is transitioning or unknown, nor while Kubernetes cannot be seen
        downFor(remediation).marked().bmc(DOWN).staysReady(),
        downFor(remediation).marked().bmc(UNK).staysReady(),
        downFor(remediation).marked().kube(DOWN_K8S).staysReady(),
        // Ready again: healthy (an event and "recovered" only if it had stopped counting)
        downFor(remediation).marked().kube(READY_EMPTY).staysReady().remediation("recovered"),
        downFor(before).kube(READY_EMPTY).staysReady(),
        // desired off wins: drained as before
        downFor(remediation).marked().want(WANT_OFF).expect(DRAINING, DRAIN),
        // the BMC reports off: drift as before
        downFor(remediation).marked().bmc(OFF_).expect(POWERING_ON, POWER_ON));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("notReadyTable")
  void aReadyNodeNotReadyInKubernetesStopsCountingThenIsCycledOnce(NotReadyCase c) {
    NodeStatus before = notReadyFor(c.down, c.marked);
    Decision d = decide(spec(c.desired), before, c.power, c.kube);
    assertThat(d.next().state()).as("state").isEqualTo(c.to);
    assertThat(d.action().verb()).as("action").isEqualTo(c.action);
    assertThat(NodeStateMachine.remediation(before, d)).as("remediation").isEqualTo(c.remediation);
    boolean seenNotReady = c.kube == NOT_READY || c.kube == ABSENT;
    if (c.to == READY && seenNotReady) {
      assertThat(d.next().notReadySince())
          .as("timed from the first sighting")
          .isEqualTo(c.down == null ? T0 : T0.minus(c.down));
    }
    if (c.kube == READY_EMPTY) {
      assertThat(d.next().notReadySince()).as("cleared").isNull();
      assertThat(d.next().lastError()).isNull();
    }
    if ("not-ready".equals(c.remediation)) {
      assertThat(d.next().lastError()).startsWith(Transitions.NOT_CAPACITY).contains("5m");
      assertThat(d.event().from()).isEqualTo(READY);
      assertThat(d.event().to()).isEqualTo(READY);
    } else if (c.action == NONE && c.to == READY && c.remediation == null) {
      assertThat(d.event()).as("nothing new to say").isNull();
    }
    if (c.action == POWER_CYCLE) {
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
    Decision error = look(joining).kube(NOT_READY).at(T0.plus(LATE_JOIN)).decide();
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
   * sinceTimer} ago), the last observation {@code seen}, the BMC now -> state, action. What a row
   * leaves out takes its default: first sent when written, seen off.
   */
  static final class ConfirmCase extends Row<ConfirmCase> {
    private final Duration sinceWrite;
    private Duration sinceTimer;
    private ObservedPower seen = ObservedPower.OFF;

    private ConfirmCase(Duration sinceWrite) {
      this.sinceWrite = sinceWrite;
      this.sinceTimer = sinceWrite;
    }

    /** The power-on was first sent {@code sinceTimer} ago, before this write. */
    ConfirmCase firstSentAgo(Duration sinceTimer) {
      this.sinceTimer = sinceTimer;
      return this;
    }

    ConfirmCase seen(ObservedPower seen) {
      this.seen = seen;
      return this;
    }

    @Override
    public String toString() {
      return "power-on written "
          + sinceWrite.toSeconds()
          + "s ago (first "
          + sinceTimer.toSeconds()
          + "s), seen "
          + seen
          + ", bmc="
          + power
          + " -> "
          + to
          + " "
          + action;
    }
  }

  static ConfirmCase writtenAgo(Duration sinceWrite) {
    return new ConfirmCase(sinceWrite);
  }

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
    return Stream.of(
        writtenAgo(early).bmc(OFF_).expect(POWERING_ON, NONE),
        writtenAgo(w).bmc(OFF_).expect(POWERING_ON, POWER_ON),
        // never while the BMC reports on, transitioning or unknown, nor on one look only
        writtenAgo(w).bmc(ON_).expect(JOINING, NONE),
        writtenAgo(w).bmc(UP).expect(POWERING_ON, NONE),
        writtenAgo(w).bmc(UNK).expect(POWERING_ON, NONE),
        writtenAgo(w).seen(ObservedPower.UNKNOWN).bmc(OFF_).expect(POWERING_ON, NONE),
        // once: sent again 2 min ago, still off
        writtenAgo(Duration.ofMinutes(2))
            .firstSentAgo(Duration.ofMinutes(3))
            .bmc(OFF_)
            .expect(POWERING_ON, NONE),
        // the power-on timeout still runs from the first
        writtenAgo(LATE_ON).bmc(OFF_).expect(ERROR, NONE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("confirmTable")
  void aPowerOnTheBmcNeverGotIsSentAgainOnceAfterTheConfirmationWindow(ConfirmCase c) {
    NodeStatus before = poweringOn(c.sinceTimer, c.sinceWrite, c.seen);
    Decision d = decide(spec(WANT_ON), before, c.power, ABSENT);
    assertThat(d.next().state()).as("state").isEqualTo(c.to);
    assertThat(d.action().verb()).as("action").isEqualTo(c.action);
    if (c.action == POWER_ON) {
      assertThat(d.next().powerActionTime()).as("written ahead").isEqualTo(T0);
      assertThat(d.next().timerStarted()).as("timer kept").isEqualTo(before.timerStarted());
      assertThat(d.event().result()).isEqualTo("requested");
      assertThat(d.event().reason()).contains("sending it again");
      // and only once: the next look, still off, waits for the power-on timeout
      Decision next = look(d.next()).power(OFF_).at(T0.plus(TIMEOUTS.powerOnConfirm())).decide();
      assertThat(next.action().verb()).isEqualTo(NONE);
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
