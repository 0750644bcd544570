package io.bamel.node;

import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.NodeStatusBuilder;
import io.bamel.inventory.model.ObservedPower;
import io.bamel.inventory.model.PowerAction;
import io.bamel.node.Action.Kind;
import io.bamel.node.Decision.Drift;
import io.bamel.power.BmcPowerState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One decision of the {@link NodeStateMachine} in the making: a method per lifecycle state, each
 * answering with one of the transitions of {@link Transitions}. Kubernetes is consulted only
 * through the observation's {@link KubeVerdict}.
 */
final class Step extends Transitions {

  private final boolean wantOn;
  private final BmcPowerState power;

  Step(Observation o, NodeStatus current) {
    super(o, current);
    this.wantOn = o.spec().desiredPowerOrOff() == DesiredPower.ON;
    this.power = o.power().state();
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
    if (power == BmcPowerState.ON) {
      return switchedOn(base().bootTime(now), "BMC reports on");
    }
    if (!wantOn) {
      return powerOff(PowerAction.POWER_OFF, "desired off while powering on");
    }
    if (expired(o.timeouts().powerOn())) {
      return poweringOnTimedOut();
    }
    if (unconfirmedPowerOn()) {
      return powerOnAgain();
    }
    return stay(Action.NONE);
  }

  private Decision poweringOnTimedOut() {
    return error(
        "BMC still reports "
            + power.wireName()
            + " "
            + text(o.timeouts().powerOn())
            + " after "
            + action()
            + " was requested");
  }

  /**
   * Powering on, desired on, the BMC reports off (not on, not transitioning, not unknown) at this
   * look and at the last one, the power-on was written ahead at least the confirmation window
   * ({@code timeouts.powerOnConfirm}) ago, and it has not been sent again yet: the command may
   * never have reached the BMC (a crash between the write-ahead and the call), so it is sent once
   * more. The step timer keeps running from the first power-on, so the power-on timeout still
   * decides.
   */
  private boolean unconfirmedPowerOn() {
    if (power != BmcPowerState.OFF
        || current.observedPower() != ObservedPower.OFF
        || current.lastPowerAction() != PowerAction.POWER_ON
        || current.powerActionTime() == null) {
      return false;
    }
    boolean resent =
        current.timerStarted() != null && current.powerActionTime().isAfter(current.timerStarted());
    return !resent
        && Duration.between(current.powerActionTime(), now).compareTo(o.timeouts().powerOnConfirm())
            >= 0;
  }

  /** The power-on again, written ahead with a new action time but the step timer kept. */
  private Decision powerOnAgain() {
    NodeStatusBuilder b =
        base().lastPowerAction(PowerAction.POWER_ON).powerActionTime(now).powerCycled(false);
    return new Decision(
        b.build(),
        Action.power(PowerAction.POWER_ON, pxe()),
        NodeEvent.transition(
            now,
            state,
            state,
            "BMC still reports off "
                + text(o.timeouts().powerOnConfirm())
                + " after power-on was written: sending it again",
            PowerAction.POWER_ON.json(),
            "requested"),
        null);
  }

  /**
   * Ready and desired on: a Kubernetes node NotReady (or gone) is timed from {@code notReadySince};
   * past the not-ready timeout it stops counting as pool capacity ({@code lastError} and an event
   * say so), past the remediation timeout (the same start) it is power-cycled once and joins again
   * (the join timeout then decides: {@code error} if it is not Ready by then). Ready again clears
   * it. Nothing is decided while the API server cannot be seen.
   */
  private Decision readyHealth() {
    return switch (verdict) {
      case DISABLED, UNREACHABLE -> stay(Action.NONE);
      case READY ->
          current.notReadySince() == null
              ? stay(Action.NONE)
              : notCapacity()
                  ? toReady(
                      base(),
                      "Kubernetes node " + kube.node().name() + " is Ready again",
                      Action.NONE)
                  : stay(Action.NONE, base().notReadySince(null));
      case NOT_READY, ABSENT -> notReady();
    };
  }

  private Decision notReady() {
    Instant since = current.notReadySince() != null ? current.notReadySince() : now;
    NodeStatusBuilder b = base().notReadySince(since);
    Duration down = Duration.between(since, now);
    String what =
        verdict == KubeVerdict.ABSENT
            ? "gone from Kubernetes"
            : "NotReady in Kubernetes (node " + kube.node().name() + ")";
    if (down.compareTo(o.timeouts().remediation()) >= 0
        && power == BmcPowerState.ON
        && !current.cycled()) {
      return transition(
          writeAhead(b, PowerAction.POWER_CYCLE).powerCycled(true),
          NodeState.JOINING,
          what + " for " + text(o.timeouts().remediation()) + ": power cycle",
          Action.power(PowerAction.POWER_CYCLE, false),
          null);
    }
    if (down.compareTo(o.timeouts().notReady()) >= 0 && !notCapacity()) {
      String message =
          NOT_CAPACITY
              + what
              + " since "
              + since
              + " (not-ready timeout "
              + text(o.timeouts().notReady())
              + "); power cycle at "
              + text(o.timeouts().remediation());
      return new Decision(
          b.lastError(message).build(),
          Action.NONE,
          NodeEvent.transition(now, state, state, message, null, NOT_READY_RESULT),
          null);
    }
    return stay(Action.NONE, b);
  }

  /** Whether the status already says the node is not counted as capacity. */
  private boolean notCapacity() {
    return current.lastError() != null && current.lastError().startsWith(NOT_CAPACITY);
  }

  Decision joining() {
    if (isOff()) {
      if (!wantOn) {
        return to(NodeState.OFF, "BMC reports off", Action.NONE);
      }
      return current.lastPowerAction() == PowerAction.POWER_CYCLE
          ? offAfterCycle()
          : unexpectedOff();
    }
    if (!wantOn) {
      // it may have joined meanwhile: never drain what cannot be seen
      return verdict == KubeVerdict.UNREACHABLE
          ? unseen()
          : startDrain("desired off before joining");
    }
    return switch (verdict) {
      case DISABLED -> toReady(base(), "no Kubernetes integration", Action.NONE);
      case UNREACHABLE -> unseen();
      case READY -> admit();
      case ABSENT, NOT_READY -> notJoinedYet();
    };
  }

  Decision ready() {
    if (isOff()) {
      return wantOn ? unexpectedOff() : to(NodeState.OFF, "BMC reports off", Action.NONE);
    }
    if (wantOn) {
      return readyHealth();
    }
    if (power == BmcPowerState.POWERING_OFF) {
      return stay(Action.NONE);
    }
    if (verdict == KubeVerdict.UNREACHABLE) {
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
      // a node not in Kubernetes has nothing to uncordon; one not seen is never written to
      return transition(
          base(),
          NodeState.READY,
          "desired on again: drain called off",
          verdict == KubeVerdict.ABSENT ? Action.NONE : Action.uncordon(),
          null);
    }
    return switch (verdict) {
      case UNREACHABLE -> unseen();
      case DISABLED, ABSENT -> powerOff(PowerAction.POWER_OFF, "nothing to drain");
      case NOT_READY, READY -> keepDraining(kube.workloads());
    };
  }

  Decision poweringOff() {
    if (isOff() && power != BmcPowerState.UNKNOWN) {
      return to(NodeState.OFF, "BMC reports off", Action.NONE);
    }
    if (expired(o.timeouts().powerOff())) {
      if (current.lastPowerAction() != PowerAction.POWER_OFF_FORCE) {
        return powerInPlace(
            base(),
            PowerAction.POWER_OFF_FORCE,
            "still "
                + power.wireName()
                + " "
                + text(o.timeouts().powerOff())
                + " after power-off: forcing");
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
    return new Decision(
        base().lastError(BMC_ERROR + o.power().error()).build(), Action.NONE, null, null);
  }

  // ------------------------------------------------------------ shared paths

  /** The BMC reports on after a power-on: ready without Kubernetes, else joining. */
  private Decision switchedOn(NodeStatusBuilder b, String reason) {
    return verdict == KubeVerdict.DISABLED ? toReady(b, reason, Action.NONE) : toJoining(b, reason);
  }

  /** Joining, desired on, not Ready in Kubernetes (yet): the join timer runs. */
  private Decision notJoinedYet() {
    NodeStatusBuilder b = resumeTimer(base());
    if (elapsed(b.build()).compareTo(o.timeouts().join()) <= 0) {
      return stay(Action.NONE, b);
    }
    if (!current.cycled()) {
      return powerInPlace(
          b.powerCycled(true),
          PowerAction.POWER_CYCLE,
          "not Ready in Kubernetes after " + text(o.timeouts().join()) + ": power cycle");
    }
    return error(
        "not Ready in Kubernetes "
            + text(o.timeouts().join())
            + " after a power cycle ("
            + (verdict == KubeVerdict.ABSENT ? "no such node" : "node not Ready")
            + ")");
  }

  /**
   * Draining a node seen in Kubernetes: switched off once no workload is left (the cache showing
   * none is checked against the API server's own list first), else evicting.
   */
  private Decision keepDraining(List<KubePod> workloads) {
    if (workloads.isEmpty()) {
      return kube.cached() ? listPods() : powerOff(PowerAction.POWER_OFF, "drained");
    }
    NodeStatusBuilder b = resumeTimer(base());
    if (elapsed(b.build()).compareTo(o.timeouts().drain()) > 0) {
      return error(drainTimedOut(workloads));
    }
    return stay(Action.drain(evictable(workloads)), b);
  }

  /**
   * Joining, desired on, the BMC reports off, and the last action was bamel's own power cycle
   * (after a join timeout): a cycle may pass through off, so within the power-on timeout of the
   * cycle this is expected and waited out. Past it: still off since (the last observation was off
   * too) is the cycle failing, an {@code error} whose retry powers on; off again after it was seen
   * on is an outside power-off, drift.
   */
  private Decision offAfterCycle() {
    Instant cycled =
        current.powerActionTime() != null ? current.powerActionTime() : current.stateSince();
    Duration since = cycled == null ? Duration.ZERO : Duration.between(cycled, now);
    if (since.compareTo(o.timeouts().powerOn()) <= 0) {
      return stay(Action.NONE);
    }
    if (current.observedPower() == ObservedPower.OFF) {
      return error(
          "BMC still reports off "
              + text(o.timeouts().powerOn())
              + " after "
              + PowerAction.POWER_CYCLE.json()
              + " was requested");
    }
    return unexpectedOff();
  }

  /** The BMC reports on and nothing bamel did explains it: join, or adopt a ready node. */
  private Decision adoptRunning(String reason) {
    if (!wantOn && state != NodeState.UNKNOWN) {
      return unexpectedOn();
    }
    return switch (verdict) {
      case DISABLED -> toReady(base(), reason, Action.NONE);
      case READY -> toReady(base(), reason, Action.label(Kind.LABEL, admitLabels()));
      case UNREACHABLE, ABSENT, NOT_READY -> toJoining(base(), reason);
    };
  }

  /** In {@code error}, desired on, and the BMC reports on. */
  private Decision recoverRunning() {
    return switch (verdict) {
      case DISABLED -> toReady(base(), "BMC reports on", Action.NONE);
      case UNREACHABLE -> stay(Action.NONE);
      case READY -> admit();
      case ABSENT, NOT_READY ->
          current.cycled()
              ? stay(Action.NONE) // already power-cycled once: wait for the node or an operator
              : toJoining(base(), "BMC reports on");
    };
  }

  /** In {@code error}, desired off, and the BMC reports on. */
  private Decision recoverToOff() {
    return switch (verdict) {
      case DISABLED, ABSENT -> powerOff(PowerAction.POWER_OFF, "desired off");
      case UNREACHABLE -> stay(Action.NONE);
      case NOT_READY, READY -> {
        List<KubePod> workloads = kube.workloads();
        if (workloads.isEmpty()) {
          yield kube.cached()
              ? listPods()
              : powerOff(PowerAction.POWER_OFF, "no workload pods left");
        }
        if (!kube.node().unschedulable()) {
          yield stay(Action.NONE); // not a drain of ours: an operator decides
        }
        // same words as at the timeout
        yield stay(Action.drain(evictable(workloads)), base().lastError(drainTimedOut(workloads)));
      }
    };
  }

  private Decision unexpectedOff() {
    return transition(
        writeAhead(base(), PowerAction.POWER_ON),
        NodeState.POWERING_ON,
        "unexpected power off",
        Action.power(PowerAction.POWER_ON, pxe()),
        Drift.UNEXPECTED_OFF);
  }

  private Decision unexpectedOn() {
    if (verdict.seen() && kube.cached() && kube.workloads().isEmpty()) {
      return listPods(); // no workload in the cache: the API server's own list decides
    }
    String why = "unexpected power on while desired off";
    return drift(
        switch (verdict) {
          case DISABLED, ABSENT -> powerOff(PowerAction.POWER_OFF, why);
          case UNREACHABLE ->
              error(why + "; Kubernetes is unreachable, so its workloads cannot be checked");
          case NOT_READY, READY -> {
            List<KubePod> workloads = kube.workloads();
            yield workloads.isEmpty()
                ? powerOff(PowerAction.POWER_OFF, why)
                : error(
                    why
                        + "; Kubernetes shows "
                        + workloads.size()
                        + " workload pods on it ("
                        + PodText.names(workloads)
                        + "): not switching it off");
          }
        });
  }

  /**
   * To {@code draining}: cordon and evict a node seen in Kubernetes; a node not in Kubernetes has
   * nothing to cordon (the next look switches it off, or drains it if it has joined meanwhile).
   */
  private Decision startDrain(String reason) {
    if (verdict == KubeVerdict.DISABLED) {
      return powerOff(PowerAction.POWER_OFF, reason);
    }
    return transition(
        restartTimer(base()),
        NodeState.DRAINING,
        reason,
        verdict.seen() ? Action.drain(evictable(kube.workloads())) : Action.NONE,
        null);
  }

  private boolean isOff() {
    return power == BmcPowerState.OFF;
  }

  private static Decision drift(Decision d) {
    return new Decision(d.next(), d.action(), d.event(), Drift.UNEXPECTED_ON);
  }
}
