package io.bamel.node;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.PodRef;
import io.bamel.inventory.model.Durations;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.NodeStatusBuilder;
import io.bamel.inventory.model.PowerAction;
import io.bamel.node.Action.Kind;
import io.bamel.node.Decision.Drift;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The building blocks of a {@link Step}: the status as just observed, the timers, and one helper
 * per kind of transition (to ready, to joining, admit, power on, power off, a power action in
 * place, error), so each transition is built in one place. Pure.
 */
abstract class Transitions {

  /** The prefix of a {@code lastError} that says the BMC did not answer. */
  static final String BMC_ERROR = "BMC: ";

  /** The prefix of a {@code lastError} that says a ready node no longer counts as capacity. */
  static final String NOT_CAPACITY = "not pool capacity: ";

  /** The event result of a ready node found NotReady past its not-ready timeout. */
  static final String NOT_READY_RESULT = "not-ready";

  final Observation o;
  final NodeStatus current;
  final NodeState state;
  final Instant now;
  final KubeView kube;
  final KubeVerdict verdict;

  Transitions(Observation o, NodeStatus current) {
    this.o = o;
    this.current = current;
    this.state = current.stateOrUnknown();
    this.now = o.now();
    this.kube = o.kube();
    this.verdict = kube.verdict();
  }

  // ------------------------------------------------------------ transitions

  /** Stays in the state, recording what was observed. */
  Decision stay(Action action) {
    return stay(action, base());
  }

  final Decision stay(Action action, NodeStatusBuilder b) {
    return new Decision(b.build(), action, null, null);
  }

  /**
   * The watched cache shows no workload left on the node: before that ends a drain (or lets a node
   * be switched off), the node's pods are listed from the API server itself and the decision is
   * made again on that list ({@link Action#LIST_PODS}). Nothing is stored from this decision.
   */
  final Decision listPods() {
    return stay(Action.LIST_PODS);
  }

  /** Stays while Kubernetes cannot be seen, with the step's timer paused. */
  final Decision unseen() {
    return stay(Action.NONE, pauseTimer(base()));
  }

  final Decision to(NodeState next, String reason, Action action) {
    return transition(base(), next, reason, action, null);
  }

  /** To a transitional state found at the BMC: its timer starts now. */
  final Decision timed(NodeState next, String reason) {
    return transition(restartTimer(base()).powerActionTime(now), next, reason, Action.NONE, null);
  }

  /** To {@code ready} (healthy: error, timer and cycle cleared). */
  final Decision toReady(NodeStatusBuilder b, String reason, Action action) {
    return transition(b, NodeState.READY, reason, action, null);
  }

  /** To {@code joining}: the join timer starts, no power cycle yet. */
  final Decision toJoining(NodeStatusBuilder b, String reason) {
    return transition(
        restartTimer(b.powerCycled(false)), NodeState.JOINING, reason, Action.NONE, null);
  }

  /** Ready in Kubernetes: to {@code ready}, labelled with the pool's labels and uncordoned. */
  final Decision admit() {
    return toReady(
        base().joinTime(now),
        "Kubernetes node " + kube.node().name() + " is Ready",
        Action.label(Kind.ADMIT, admitLabels()));
  }

  final Decision powerOn(String reason) {
    NodeStatusBuilder b = writeAhead(base(), PowerAction.POWER_ON).powerCycled(false);
    return transition(
        b, NodeState.POWERING_ON, reason, Action.power(PowerAction.POWER_ON, pxe()), null);
  }

  final Decision powerOff(PowerAction off, String reason) {
    NodeStatusBuilder b = writeAhead(base(), off);
    return transition(b, NodeState.POWERING_OFF, reason, Action.power(off, false), null);
  }

  /** A power action (written ahead) that keeps the state: a power cycle, a forced power-off. */
  final Decision powerInPlace(NodeStatusBuilder b, PowerAction power, String reason) {
    return new Decision(
        writeAhead(b, power).build(),
        Action.power(power, false),
        NodeEvent.transition(now, state, state, reason, power.json(), "requested"),
        null);
  }

  /** To {@code error} with {@code message}; in {@code error}, counted only when it changed. */
  final Decision error(String message) {
    NodeStatusBuilder b =
        base().lastError(message).errorCount(current.errors() + 1).timerStarted(null);
    if (state == NodeState.ERROR) {
      boolean changed = !message.equals(current.lastError());
      return new Decision(
          b.errorCount(changed ? current.errors() + 1 : current.errors()).build(),
          Action.NONE,
          changed
              ? NodeEvent.transition(now, state, NodeState.ERROR, message, null, "error")
              : null,
          null);
    }
    return transition(b, NodeState.ERROR, message, Action.NONE, null);
  }

  final Decision transition(
      NodeStatusBuilder b, NodeState next, String reason, Action action, Drift drift) {
    if (next == NodeState.OFF || next == NodeState.READY) {
      healthy(b);
    }
    NodeStatus status =
        b.state(next).stateSince(next == state ? current.stateSince() : now).build();
    String result = action.isPower() ? "requested" : "ok";
    NodeEvent event =
        NodeEvent.transition(
            now, state, next, reason, action.kind() == Kind.NONE ? null : action.text(), result);
    return new Decision(status, action, event, drift);
  }

  // ------------------------------------------------------------ building blocks

  /** The current status with what was just observed. */
  final NodeStatusBuilder base() {
    NodeStatusBuilder b =
        current.toBuilder()
            .observedPower(o.power().observed())
            .bmcReachable(o.power().failed() ? Boolean.FALSE : Boolean.TRUE)
            .observedSpecRevision(o.specRevision());
    if (!o.power().failed()
        && current.lastError() != null
        && current.lastError().startsWith(BMC_ERROR)) {
      b.lastError(null); // the BMC answers again
    }
    switch (verdict) {
      case READY, NOT_READY ->
          b.kubernetesNode(kube.node().name()).nodeReady(verdict == KubeVerdict.READY);
      case ABSENT -> b.nodeReady(false);
      case DISABLED -> b.kubernetesNode(null).nodeReady(null);
      case UNREACHABLE -> {}
    }
    return b;
  }

  private static NodeStatusBuilder healthy(NodeStatusBuilder b) {
    return b.lastError(null)
        .errorCount(0)
        .timerStarted(null)
        .timerElapsed(null)
        .powerCycled(null)
        .notReadySince(null);
  }

  /** Records the power action about to be requested (the write-ahead) and restarts the timer. */
  final NodeStatusBuilder writeAhead(NodeStatusBuilder b, PowerAction power) {
    return restartTimer(b.lastPowerAction(power).powerActionTime(now));
  }

  /** Starts the step timer afresh now. */
  final NodeStatusBuilder restartTimer(NodeStatusBuilder b) {
    return b.timerStarted(now).timerElapsed(Duration.ZERO);
  }

  final NodeStatusBuilder pauseTimer(NodeStatusBuilder b) {
    if (current.timerStarted() == null) {
      return b;
    }
    return b.timerElapsed(current.timerAt(now)).timerStarted(null);
  }

  final NodeStatusBuilder resumeTimer(NodeStatusBuilder b) {
    if (current.timerStarted() != null) {
      return b;
    }
    Duration elapsed = current.timerElapsed() == null ? Duration.ZERO : current.timerElapsed();
    return b.timerStarted(now).timerElapsed(elapsed);
  }

  final Duration elapsed(NodeStatus s) {
    if (s.timerStarted() == null && s.timerElapsed() == null) {
      // no timer yet (a status from before timers): count from the state's start
      return s.stateSince() == null ? Duration.ZERO : Duration.between(s.stateSince(), now);
    }
    return s.timerAt(now);
  }

  final boolean expired(Duration timeout) {
    return elapsed(current).compareTo(timeout) > 0;
  }

  final boolean pxe() {
    return NodeStateMachine.pxeBoot(o.spec().bootProfile());
  }

  /** The power action last requested, for messages. */
  final String action() {
    return current.lastPowerAction() == null ? "power-on" : current.lastPowerAction().json();
  }

  final Map<String, String> admitLabels() {
    Map<String, String> labels = new HashMap<>(o.poolLabels());
    if (o.spec().pool() != null) {
      labels.put(Cluster.POOL_LABEL, o.spec().pool());
    }
    return labels;
  }

  /** The workloads a drain may evict: none on a node annotated do-not-disrupt. */
  final List<PodRef> evictable(List<KubePod> workloads) {
    if (PodText.doNotDisrupt(kube)) {
      return List.of();
    }
    return workloads.stream().filter(p -> !p.doNotDisrupt()).map(KubePod::ref).toList();
  }

  final String drainTimedOut(List<KubePod> workloads) {
    return "drain did not finish within "
        + text(o.timeouts().drain())
        + "; "
        + PodText.blockers(kube, workloads);
  }

  static String text(Duration d) {
    return Durations.format(d);
  }
}
