package io.bamel.node;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.PodRef;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.NodeStatusBuilder;
import io.bamel.inventory.model.NodeTimeouts;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PowerState;
import io.bamel.node.Action.Kind;
import io.bamel.node.Decision.Drift;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The node lifecycle as one pure function: {@link #decide(Observation)} maps (spec, status,
 * observed power, observed Kubernetes node, timeouts, now) to (next status, one action). No I/O, no
 * clock, no randomness: the same observation always gives the same decision.
 *
 * <pre>
 * off -> powering-on -> joining -> ready -> draining -> powering-off -> off;  error from any step
 * </pre>
 *
 * <ul>
 *   <li>Power actions are written ahead: the decision's status already names the action and its
 *       time; the controller stores it before calling the BMC. A node found in {@code powering-on}
 *       or {@code powering-off} is only observed until its timeout.
 *   <li>Timeouts (per pool, else global, else 5/20/10/5 min; {@link #timeouts}): power-on (then
 *       {@code error}), join (then one power cycle, then {@code error}), drain (then {@code error}
 *       naming the blocking pods; the node stays cordoned), power-off (then forced, then {@code
 *       error}). Join and drain timers pause while the Kubernetes API is unreachable.
 *   <li>The power cycle after a join timeout may pass through off: an off seen within the power-on
 *       timeout of the cycle is waited out (no action, no drift); still off after it, {@code
 *       error}.
 *   <li>Drift: off while it should be on is powered on again; on while it should be off is powered
 *       off only when Kubernetes shows no workload pods on it, else {@code error}.
 *   <li>{@code error} keeps {@code lastError} and {@code errorCount} and leaves by itself when the
 *       cause is gone; the controller retries it with backoff.
 *   <li>{@code spec.maintenance} stops every action; the status still records what is observed.
 *   <li>A power-on boots from the network once when {@link #pxeBoot the boot profile} asks for it.
 *   <li>A BMC that does not answer changes nothing but {@code bmcReachable} and {@code lastError};
 *       power-on and power-off timeouts still run.
 * </ul>
 */
public final class NodeStateMachine {

  private static final String BMC_ERROR = "BMC: ";

  private NodeStateMachine() {}

  /**
   * Whether the controller must list the pods on the node for this decision: only when the node may
   * have to be drained or switched off.
   */
  public static boolean needsPods(io.bamel.inventory.model.NodeSpec spec, NodeStatus status) {
    NodeState state = status == null ? NodeState.UNKNOWN : status.stateOrUnknown();
    return spec.desiredPower() == PowerState.OFF
        || state == NodeState.DRAINING
        || state == NodeState.ERROR;
  }

  /**
   * Whether {@code bootProfile} asks for a network (PXE) boot: it is {@code pxe}, or starts with
   * {@code pxe-} or {@code pxe:} (such as {@code pxe-ubuntu-24} or {@code pxe:rescue}), ignoring
   * case and surrounding blanks. Any other profile ({@code disk}, {@code no-pxe}, {@code ipxe},
   * none) boots as the machine is set up.
   */
  public static boolean pxeBoot(String bootProfile) {
    if (bootProfile == null) {
      return false;
    }
    String p = bootProfile.strip().toLowerCase(java.util.Locale.ROOT);
    return p.equals("pxe") || p.startsWith("pxe-") || p.startsWith("pxe:");
  }

  /**
   * The step timeouts of a node: each one from its pool's config when set there, else from {@code
   * global} (the controller's), else {@link NodeTimeouts#DEFAULTS}.
   *
   * @param pool the node's pool config, or null (no pool, or a pool without config)
   * @param global the controller's global timeouts, or null
   */
  public static NodeTimeouts timeouts(PoolConfig pool, NodeTimeouts global) {
    NodeTimeouts fallback =
        global == null ? NodeTimeouts.DEFAULTS : global.orElse(NodeTimeouts.DEFAULTS);
    return pool == null || pool.timeouts() == null ? fallback : pool.timeouts().orElse(fallback);
  }

  /** The decision for {@code o}. */
  public static Decision decide(Observation o) {
    NodeStatus current = o.status() == null ? NodeStatus.initial(o.now()) : o.status();
    Step s = new Step(o, current);
    if (o.power().failed()) {
      return s.bmcUnreachable();
    }
    if (o.spec().inMaintenance()) {
      return s.stay(Action.NONE);
    }
    return switch (current.stateOrUnknown()) {
      case UNKNOWN -> s.unknown();
      case OFF -> s.off();
      case POWERING_ON -> s.poweringOn();
      case JOINING -> s.joining();
      case READY -> s.ready();
      case DRAINING -> s.draining();
      case POWERING_OFF -> s.poweringOff();
      case ERROR -> s.error();
    };
  }

  /** One decision in the making. */
  private static final class Step {
    private final Observation o;
    private final NodeStatus current;
    private final NodeState state;
    private final Instant now;
    private final boolean wantOn;
    private final io.bamel.power.PowerState power;
    private final KubeView kube;

    Step(Observation o, NodeStatus current) {
      this.o = o;
      this.current = current;
      this.state = current.stateOrUnknown();
      this.now = o.now();
      this.wantOn = o.spec().desiredPower() == PowerState.ON;
      this.power = o.power().state();
      this.kube = o.kube();
    }

    // ------------------------------------------------------------ states

    Decision unknown() {
      return switch (power) {
        case ON -> adoptRunning("found on");
        case OFF -> to(NodeState.OFF, "found off", Action.NONE);
        case POWERING_ON -> timed(NodeState.POWERING_ON, "found powering on");
        case POWERING_OFF -> timed(NodeState.POWERING_OFF, "found powering off");
        case UNKNOWN -> stay(Action.NONE);
      };
    }

    Decision off() {
      if (wantOn) {
        return switch (power) {
          case OFF, UNKNOWN -> powerOn("desired on");
          case ON -> adoptRunning("switched on outside bamel");
          case POWERING_ON -> timed(NodeState.POWERING_ON, "switching on outside bamel");
          case POWERING_OFF -> stay(Action.NONE);
        };
      }
      return switch (power) {
        case OFF, UNKNOWN, POWERING_OFF -> stay(Action.NONE);
        case ON, POWERING_ON -> unexpectedOn();
      };
    }

    Decision poweringOn() {
      if (power == io.bamel.power.PowerState.ON) {
        NodeStatusBuilder b = base().bootTime(now).powerCycled(false).restartTimer(now);
        if (kube.mode() == KubeView.Mode.DISABLED) {
          return transition(healthy(b), NodeState.READY, "BMC reports on", Action.NONE, null);
        }
        return transition(b, NodeState.JOINING, "BMC reports on", Action.NONE, null);
      }
      if (!wantOn) {
        return powerOff(Kind.POWER_OFF, "desired off while powering on");
      }
      if (expired(o.timeouts().powerOn())) {
        return error(
            "BMC still reports "
                + power.wireName()
                + " "
                + text(o.timeouts().powerOn())
                + " after "
                + action()
                + " was requested");
      }
      return stay(Action.NONE);
    }

    Decision joining() {
      if (isOff()) {
        if (!wantOn) {
          return to(NodeState.OFF, "BMC reports off", Action.NONE);
        }
        return Kind.POWER_CYCLE.text().equals(current.lastPowerAction())
            ? offAfterCycle()
            : unexpectedOff();
      }
      if (!wantOn) {
        if (kube.mode() == KubeView.Mode.UNREACHABLE) {
          // it may have joined meanwhile: never drain what cannot be seen
          return stay(Action.NONE, pauseTimer(base()));
        }
        return startDrain("desired off before joining");
      }
      switch (kube.mode()) {
        case DISABLED -> {
          return transition(
              healthy(base()), NodeState.READY, "no Kubernetes integration", Action.NONE, null);
        }
        case UNREACHABLE -> {
          return stay(Action.NONE, pauseTimer(base()));
        }
        default -> {}
      }
      if (kube.nodeReady()) {
        return transition(
            healthy(base()).joinTime(now),
            NodeState.READY,
            "Kubernetes node " + kube.node().name() + " is Ready",
            Action.label(Kind.ADMIT, admitLabels()),
            null);
      }
      NodeStatusBuilder b = resumeTimer(base());
      if (elapsed(b.build()).compareTo(o.timeouts().join()) > 0) {
        if (!current.cycled()) {
          NodeStatusBuilder cycle =
              b.powerCycled(true)
                  .restartTimer(now)
                  .lastPowerAction(Kind.POWER_CYCLE.text())
                  .powerActionTime(now);
          return event(
              cycle.build(),
              Action.power(Kind.POWER_CYCLE, false),
              "not Ready in Kubernetes after " + text(o.timeouts().join()) + ": power cycle",
              "requested",
              null);
        }
        return error(
            "not Ready in Kubernetes "
                + text(o.timeouts().join())
                + " after a power cycle ("
                + (kube.mode() == KubeView.Mode.ABSENT ? "no such node" : "node not Ready")
                + ")");
      }
      return stay(Action.NONE, b);
    }

    Decision ready() {
      if (isOff()) {
        return wantOn ? unexpectedOff() : to(NodeState.OFF, "BMC reports off", Action.NONE);
      }
      if (wantOn || power == io.bamel.power.PowerState.POWERING_OFF) {
        return stay(Action.NONE);
      }
      if (kube.mode() == KubeView.Mode.UNREACHABLE) {
        return stay(Action.NONE); // never drain what cannot be seen
      }
      return startDrain("desired off");
    }

    Decision draining() {
      if (isOff()) {
        return wantOn
            ? powerOn("lost power while draining")
            : to(NodeState.OFF, "BMC reports off", Action.NONE);
      }
      if (wantOn) {
        return transition(
            base(), NodeState.READY, "desired on again: drain called off", Action.uncordon(), null);
      }
      switch (kube.mode()) {
        case UNREACHABLE -> {
          return stay(Action.NONE, pauseTimer(base()));
        }
        case DISABLED, ABSENT -> {
          return powerOff(Kind.POWER_OFF, "nothing to drain");
        }
        default -> {}
      }
      List<KubePod> workloads = kube.workloads();
      if (workloads.isEmpty()) {
        return powerOff(Kind.POWER_OFF, "drained");
      }
      NodeStatusBuilder b = resumeTimer(base());
      if (elapsed(b.build()).compareTo(o.timeouts().drain()) > 0) {
        return error(drainTimedOut(workloads));
      }
      return stay(Action.drain(evictable(workloads)), b);
    }

    Decision poweringOff() {
      if (isOff() && power != io.bamel.power.PowerState.UNKNOWN) {
        return to(NodeState.OFF, "BMC reports off", Action.NONE);
      }
      if (expired(o.timeouts().powerOff())) {
        if (!Kind.POWER_OFF_FORCE.text().equals(current.lastPowerAction())) {
          NodeStatusBuilder b =
              base()
                  .restartTimer(now)
                  .lastPowerAction(Kind.POWER_OFF_FORCE.text())
                  .powerActionTime(now);
          return event(
              b.build(),
              Action.power(Kind.POWER_OFF_FORCE, false),
              "still "
                  + power.wireName()
                  + " "
                  + text(o.timeouts().powerOff())
                  + " after power-off: forcing",
              "requested",
              null);
        }
        return error("BMC still reports " + power.wireName() + " after a forced power-off");
      }
      return stay(Action.NONE);
    }

    Decision error() {
      if (wantOn) {
        return switch (power) {
          case OFF, UNKNOWN -> powerOn("retrying power-on");
          case POWERING_ON -> timed(NodeState.POWERING_ON, "BMC reports powering on");
          case POWERING_OFF -> stay(Action.NONE);
          case ON -> recoverRunning();
        };
      }
      return switch (power) {
        case OFF -> to(NodeState.OFF, "BMC reports off", Action.NONE);
        case POWERING_OFF -> timed(NodeState.POWERING_OFF, "BMC reports powering off");
        case UNKNOWN -> stay(Action.NONE);
        case ON, POWERING_ON -> recoverToOff();
      };
    }

    Decision bmcUnreachable() {
      NodeStatusBuilder b = base().lastError(BMC_ERROR + o.power().error());
      if (state == NodeState.POWERING_ON && expired(o.timeouts().powerOn())) {
        return error(
            "BMC did not answer "
                + text(o.timeouts().powerOn())
                + " after power-on: "
                + o.power().error());
      }
      if (state == NodeState.POWERING_OFF && expired(o.timeouts().powerOff())) {
        return error(
            "BMC did not answer "
                + text(o.timeouts().powerOff())
                + " after power-off: "
                + o.power().error());
      }
      return new Decision(b.build(), Action.NONE, null, null);
    }

    // ------------------------------------------------------------ shared paths

    /**
     * Joining, desired on, the BMC reports off, and the last action was bamel's own power cycle
     * (after a join timeout): a cycle may pass through off, so within the power-on timeout of the
     * cycle this is expected and waited out. Past it: still off since (the last observation was off
     * too) is the cycle failing, an {@code error} whose retry powers on; off again after it was
     * seen on is an outside power-off, drift.
     */
    private Decision offAfterCycle() {
      Instant cycled =
          current.powerActionTime() != null ? current.powerActionTime() : current.stateSince();
      Duration since = cycled == null ? Duration.ZERO : Duration.between(cycled, now);
      if (since.compareTo(o.timeouts().powerOn()) <= 0) {
        return stay(Action.NONE);
      }
      if (current.powerState() == PowerState.OFF) {
        return error(
            "BMC still reports off "
                + text(o.timeouts().powerOn())
                + " after "
                + Kind.POWER_CYCLE.text()
                + " was requested");
      }
      return unexpectedOff();
    }

    /** The BMC reports on and nothing bamel did explains it: join, or adopt a ready node. */
    private Decision adoptRunning(String reason) {
      if (!wantOn) {
        return state == NodeState.UNKNOWN ? adoptReady(reason) : unexpectedOn();
      }
      return adoptReady(reason);
    }

    private Decision adoptReady(String reason) {
      switch (kube.mode()) {
        case DISABLED -> {
          return transition(healthy(base()), NodeState.READY, reason, Action.NONE, null);
        }
        case PRESENT -> {
          if (kube.node().ready()) {
            return transition(
                healthy(base()),
                NodeState.READY,
                reason,
                Action.label(Kind.LABEL, admitLabels()),
                null);
          }
        }
        default -> {}
      }
      return transition(
          base().powerCycled(false).restartTimer(now),
          NodeState.JOINING,
          reason,
          Action.NONE,
          null);
    }

    private Decision recoverRunning() {
      switch (kube.mode()) {
        case DISABLED -> {
          return transition(healthy(base()), NodeState.READY, "BMC reports on", Action.NONE, null);
        }
        case UNREACHABLE -> {
          return stay(Action.NONE);
        }
        default -> {}
      }
      if (kube.nodeReady()) {
        return transition(
            healthy(base()).joinTime(now),
            NodeState.READY,
            "Kubernetes node " + kube.node().name() + " is Ready",
            Action.label(Kind.ADMIT, admitLabels()),
            null);
      }
      if (current.cycled()) {
        return stay(Action.NONE); // already power-cycled once: wait for the node or an operator
      }
      return transition(
          base().powerCycled(false).restartTimer(now),
          NodeState.JOINING,
          "BMC reports on",
          Action.NONE,
          null);
    }

    private Decision recoverToOff() {
      switch (kube.mode()) {
        case DISABLED, ABSENT -> {
          return powerOff(Kind.POWER_OFF, "desired off");
        }
        case UNREACHABLE -> {
          return stay(Action.NONE);
        }
        default -> {}
      }
      List<KubePod> workloads = kube.workloads();
      if (workloads.isEmpty()) {
        return powerOff(Kind.POWER_OFF, "no workload pods left");
      }
      if (!kube.node().unschedulable()) {
        return stay(Action.NONE); // not a drain of ours: an operator decides
      }
      NodeStatusBuilder b =
          base().lastError(drainTimedOut(workloads)); // same words as at the timeout
      return stay(Action.drain(evictable(workloads)), b);
    }

    private Decision unexpectedOff() {
      NodeStatusBuilder b = writeAhead(base(), Kind.POWER_ON);
      return transition(
          b,
          NodeState.POWERING_ON,
          "unexpected power off",
          Action.power(Kind.POWER_ON, pxe()),
          Drift.UNEXPECTED_OFF);
    }

    private Decision unexpectedOn() {
      String why = "unexpected power on while desired off";
      switch (kube.mode()) {
        case DISABLED, ABSENT -> {
          return drift(powerOff(Kind.POWER_OFF, why));
        }
        case UNREACHABLE -> {
          return drift(
              error(why + "; Kubernetes is unreachable, so its workloads cannot be checked"));
        }
        default -> {}
      }
      List<KubePod> workloads = kube.workloads();
      if (workloads.isEmpty()) {
        return drift(powerOff(Kind.POWER_OFF, why));
      }
      return drift(
          error(
              why
                  + "; Kubernetes shows "
                  + workloads.size()
                  + " workload pods on it ("
                  + names(workloads)
                  + "): not switching it off"));
    }

    private Decision startDrain(String reason) {
      if (kube.mode() == KubeView.Mode.DISABLED) {
        return powerOff(Kind.POWER_OFF, reason);
      }
      List<PodRef> evict =
          kube.mode() == KubeView.Mode.PRESENT ? evictable(kube.workloads()) : List.of();
      return transition(
          base().restartTimer(now), NodeState.DRAINING, reason, Action.drain(evict), null);
    }

    private Decision powerOn(String reason) {
      NodeStatusBuilder b = writeAhead(base(), Kind.POWER_ON).powerCycled(false);
      return transition(b, NodeState.POWERING_ON, reason, Action.power(Kind.POWER_ON, pxe()), null);
    }

    private Decision powerOff(Kind kind, String reason) {
      NodeStatusBuilder b = writeAhead(base(), kind);
      return transition(b, NodeState.POWERING_OFF, reason, Action.power(kind, false), null);
    }

    private Decision error(String message) {
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

    // ------------------------------------------------------------ building blocks

    /** The current status with what was just observed. */
    private NodeStatusBuilder base() {
      NodeStatusBuilder b =
          current.toBuilder()
              .powerState(o.power().observed())
              .bmcReachable(o.power().failed() ? Boolean.FALSE : Boolean.TRUE)
              .observedSpecRevision(o.specRevision());
      if (!o.power().failed()
          && current.lastError() != null
          && current.lastError().startsWith(BMC_ERROR)) {
        b.lastError(null); // the BMC answers again
      }
      switch (kube.mode()) {
        case PRESENT -> b.kubernetesNode(kube.node().name()).nodeReady(kube.node().ready());
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
          .powerCycled(null);
    }

    private NodeStatusBuilder writeAhead(NodeStatusBuilder b, Kind kind) {
      return b.lastPowerAction(kind.text()).powerActionTime(now).restartTimer(now);
    }

    private NodeStatusBuilder pauseTimer(NodeStatusBuilder b) {
      if (current.timerStarted() == null) {
        return b;
      }
      return b.timerElapsed(current.timerAt(now)).timerStarted(null);
    }

    private NodeStatusBuilder resumeTimer(NodeStatusBuilder b) {
      if (current.timerStarted() != null) {
        return b;
      }
      Duration elapsed = current.timerElapsed() == null ? Duration.ZERO : current.timerElapsed();
      return b.timerStarted(now).timerElapsed(elapsed);
    }

    private Duration elapsed(NodeStatus s) {
      if (s.timerStarted() == null && s.timerElapsed() == null) {
        // no timer yet (a status from before timers): count from the state's start
        return s.stateSince() == null ? Duration.ZERO : Duration.between(s.stateSince(), now);
      }
      return s.timerAt(now);
    }

    private boolean expired(Duration timeout) {
      return elapsed(current).compareTo(timeout) > 0;
    }

    private boolean isOff() {
      return power == io.bamel.power.PowerState.OFF;
    }

    private boolean pxe() {
      return pxeBoot(o.spec().bootProfile());
    }

    private String action() {
      return current.lastPowerAction() == null ? "power-on" : current.lastPowerAction();
    }

    private Map<String, String> admitLabels() {
      Map<String, String> labels = new HashMap<>(o.poolLabels());
      if (o.spec().pool() != null) {
        labels.put(Cluster.POOL_LABEL, o.spec().pool());
      }
      return labels;
    }

    private List<PodRef> evictable(List<KubePod> workloads) {
      if (kube.node() != null && kube.node().doNotDisrupt()) {
        return List.of();
      }
      return workloads.stream().filter(p -> !p.doNotDisrupt()).map(KubePod::ref).toList();
    }

    private String drainTimedOut(List<KubePod> workloads) {
      return "drain did not finish within "
          + text(o.timeouts().drain())
          + "; "
          + blockers(workloads);
    }

    private String blockers(List<KubePod> workloads) {
      if (kube.node() != null && kube.node().doNotDisrupt()) {
        return "the node is annotated "
            + Cluster.DO_NOT_DISRUPT
            + "; pods left: "
            + names(workloads);
      }
      return "blocking pods: "
          + workloads.stream()
              .map(
                  p -> {
                    String reason =
                        p.doNotDisrupt()
                            ? "annotated " + Cluster.DO_NOT_DISRUPT
                            : kube.blocked().getOrDefault(p.ref().toString(), "not evicted yet");
                    return p.ref() + " (" + reason + ")";
                  })
              .sorted()
              .collect(Collectors.joining(", "));
    }

    private static String names(List<KubePod> pods) {
      return pods.stream().map(p -> p.ref().toString()).sorted().collect(Collectors.joining(", "));
    }

    private static String text(Duration d) {
      return io.bamel.inventory.model.Durations.format(d);
    }

    // ------------------------------------------------------------ decisions

    Decision stay(Action action) {
      return stay(action, base());
    }

    private Decision stay(Action action, NodeStatusBuilder b) {
      return new Decision(b.build(), action, null, null);
    }

    private Decision to(NodeState next, String reason, Action action) {
      NodeStatusBuilder b = base();
      if (next == NodeState.OFF || next == NodeState.READY) {
        healthy(b);
      }
      return transition(b, next, reason, action, null);
    }

    private Decision timed(NodeState next, String reason) {
      return transition(
          base().restartTimer(now).powerActionTime(now), next, reason, Action.NONE, null);
    }

    private Decision transition(
        NodeStatusBuilder b, NodeState next, String reason, Action action, Drift drift) {
      if (next == NodeState.OFF || next == NodeState.READY) {
        healthy(b);
      }
      NodeStatus status =
          b.state(next).stateSince(next == state ? current.stateSince() : now).build();
      String result = action.kind().power() ? "requested" : "ok";
      NodeEvent event =
          NodeEvent.transition(
              now,
              state,
              next,
              reason,
              action.kind() == Kind.NONE ? null : action.kind().text(),
              result);
      return new Decision(status, action, event, drift);
    }

    private Decision event(
        NodeStatus status, Action action, String reason, String result, Drift drift) {
      return new Decision(
          status,
          action,
          NodeEvent.transition(now, state, state, reason, action.kind().text(), result),
          drift);
    }

    private static Decision drift(Decision d) {
      return new Decision(d.next(), d.action(), d.event(), Drift.UNEXPECTED_ON);
    }
  }
}
