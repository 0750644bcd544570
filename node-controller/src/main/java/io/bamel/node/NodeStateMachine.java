package io.bamel.node;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.NodeTimeouts;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PowerAction;
import io.bamel.node.Decision.Requeue;
import io.bamel.power.PowerException;
import io.bamel.power.PowerResult;
import java.time.Duration;
import java.time.Instant;

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
 *   <li>A ready node whose Kubernetes node is NotReady (or gone) is timed from {@code
 *       notReadySince}: past the not-ready timeout (5 min) {@code lastError} says it is not pool
 *       capacity (the pool controller stops counting it), past the remediation timeout (15 min, the
 *       same start) it is power-cycled once and joins again, so the join timeout then decides
 *       ({@code error} if not Ready by then). Ready again clears both.
 *   <li>A power-on written ahead whose BMC still reports off after the confirmation window (60 s)
 *       is sent once more (a crash may have come between the write-ahead and the call); never while
 *       the BMC reports on, transitioning or unknown; the power-on timeout still runs from the
 *       first.
 *   <li>The power cycle after a join timeout may pass through off: an off seen within the power-on
 *       timeout of the cycle is waited out (no action, no drift); still off after it, {@code
 *       error}.
 *   <li>Drift: off while it should be on is powered on again; on while it should be off is powered
 *       off only when Kubernetes shows no workload pods on it, else {@code error}.
 *   <li>"No workload left" (the end of a drain, or a node that may be switched off) is concluded
 *       only from the API server's own list of the node's pods: when the watched cache shows none,
 *       the decision is {@link Action#LIST_PODS} and the controller decides again on that list
 *       (pods the cache missed are evicted; a list that fails is an unreachable API: nothing is
 *       switched off).
 *   <li>{@code error} keeps {@code lastError} and {@code errorCount} and leaves by itself when the
 *       cause is gone; the controller retries it with backoff.
 *   <li>{@code spec.maintenance} stops every action; the status still records what is observed.
 *   <li>A power-on boots from the network once when {@link #pxeBoot the boot profile} asks for it.
 *   <li>A BMC that does not answer changes nothing but {@code bmcReachable} and {@code lastError};
 *       power-on and power-off timeouts still run.
 *   <li>Kubernetes is seen through one {@link KubeVerdict} per decision.
 * </ul>
 */
public final class NodeStateMachine {

  private NodeStateMachine() {}

  /**
   * Whether the controller must list the pods on the node for this decision: only when the node may
   * have to be drained or switched off.
   */
  public static boolean needsPods(NodeSpec spec, NodeStatus status) {
    NodeState state = status == null ? NodeState.UNKNOWN : status.stateOrUnknown();
    return spec.desiredPowerOrOff() == DesiredPower.OFF
        || state == NodeState.DRAINING
        || state == NodeState.ERROR;
  }

  /**
   * Whether {@code bootProfile} asks for a network (PXE) boot ({@link NodeSpec#pxeBoot}: {@code
   * pxe}, {@code pxe-...}, {@code pxe:...}); validation refuses such a profile on a power interface
   * that cannot set a boot device.
   */
  public static boolean pxeBoot(String bootProfile) {
    return NodeSpec.pxeBoot(bootProfile);
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

  /** The decision for {@code o}, with when to look at the node again ({@link #requeue}). */
  public static Decision decide(Observation o) {
    Decision d = step(o);
    return d.withRequeue(requeue(o, d));
  }

  /**
   * Which step of the remediation of a NotReady node {@code d} is, coming from {@code before}: the
   * {@code result} label of {@code bamel_node_remediations_total}: {@code not-ready} (no longer
   * capacity), {@code power-cycle} (the one cycle requested), {@code recovered} (Ready again after
   * either), {@code error} (not Ready within the join timeout after the cycle, or the cycle
   * failed). Null when {@code d} is none of them.
   */
  public static String remediation(NodeStatus before, Decision d) {
    if (before == null || d.next() == null) {
      return null;
    }
    NodeState from = before.stateOrUnknown();
    NodeState to = d.next().stateOrUnknown();
    boolean marked =
        before.lastError() != null && before.lastError().startsWith(Transitions.NOT_CAPACITY);
    if (from == NodeState.READY) {
      if (to == NodeState.JOINING && d.action().power() == PowerAction.POWER_CYCLE) {
        return "power-cycle";
      }
      if (to == NodeState.READY
          && d.event() != null
          && Transitions.NOT_READY_RESULT.equals(d.event().result())) {
        return "not-ready";
      }
      return to == NodeState.READY && marked && d.next().notReadySince() == null
          ? "recovered"
          : null;
    }
    if (from == NodeState.JOINING && before.notReadySince() != null && before.cycled()) {
      return switch (to) {
        case READY -> "recovered";
        case ERROR -> "error";
        default -> null;
      };
    }
    return null;
  }

  /**
   * The power action of {@code writtenAhead} failed at the BMC ({@code failure}: the reason and the
   * driver's message) at {@code now}: the node goes to {@code error} from the written-ahead status,
   * with an event naming the action, and is retried with backoff.
   */
  public static Decision powerActionFailed(Decision writtenAhead, String failure, Instant now) {
    String action = writtenAhead.action().text();
    String message = action + " failed: " + failure;
    NodeStatus ahead = writtenAhead.next();
    NodeStatus failed =
        ahead.toBuilder()
            .state(NodeState.ERROR)
            .stateSince(now)
            .lastError(message)
            .errorCount(ahead.errors() + 1)
            .timerStarted(null)
            .build();
    NodeEvent event =
        NodeEvent.transition(
            now, ahead.stateOrUnknown(), NodeState.ERROR, message, action, "failed");
    return new Decision(failed, Action.NONE, event, null, Requeue.BACKOFF);
  }

  /**
   * The power action of {@code writtenAhead} was carried out at {@code now} and the BMC's driver
   * reported what it sent ({@code result}): the written-ahead status stays, with an event naming
   * the action and what was sent (for example {@code sent GracefulShutdown}). Null when the driver
   * does not report (nothing to add to the written-ahead event).
   */
  public static Decision powerActionSent(Decision writtenAhead, PowerResult result, Instant now) {
    if (!result.reported()) {
      return null;
    }
    String action = writtenAhead.action().text();
    NodeState state = writtenAhead.next().stateOrUnknown();
    NodeEvent event =
        NodeEvent.transition(now, state, state, action + ": " + result.summary(), action, "ok");
    return new Decision(writtenAhead.next(), Action.NONE, event, null, Requeue.POLL);
  }

  /**
   * The graceful power-off of {@code writtenAhead} failed as unsupported at {@code now} (the BMC
   * offers no graceful off; {@code failure}: the reason and the driver's message): nothing was
   * sent, so waiting the graceful timeout would only delay the same forced off. The answer is a
   * forced power-off at once, written ahead like any power action ({@code lastPowerAction}
   * power-off-force, its time, the step timer restarted), the node still {@code powering-off}; the
   * event says that the graceful off was unsupported and why.
   */
  public static Decision gracefulOffUnsupported(
      Decision writtenAhead, String failure, Instant now) {
    String action = writtenAhead.action().text();
    NodeState state = writtenAhead.next().stateOrUnknown();
    PowerAction force = PowerAction.POWER_OFF_FORCE;
    NodeStatus next =
        writtenAhead.next().toBuilder()
            .lastPowerAction(force)
            .powerActionTime(now)
            .timerStarted(now)
            .timerElapsed(Duration.ZERO)
            .build();
    String message = action + ": nothing sent, no graceful off (" + failure + "); forcing at once";
    NodeEvent event = NodeEvent.transition(now, state, state, message, action, "unsupported");
    return new Decision(next, Action.power(force, false), event, null, Requeue.POLL);
  }

  /** Whether {@code e} answering {@code action} is a graceful off the BMC cannot do. */
  static boolean gracefulOffUnsupported(Action action, PowerException e) {
    return action.power() == PowerAction.POWER_OFF
        && e.reason() == PowerException.Reason.UNSUPPORTED;
  }

  /**
   * When to look at the node again after {@code d}: after a power action, or in a step that waits
   * for its effect (powering on or off, joining, draining), or while a desired power-off waits for
   * an unreachable Kubernetes API, at the poll interval; when the BMC did not answer or the node is
   * in {@code error}, with backoff; else at the next sync.
   */
  static Requeue requeue(Observation o, Decision d) {
    if (d.action().isPower()) {
      return Requeue.POLL;
    }
    NodeState next = d.next().stateOrUnknown();
    if (o.power().failed() || next == NodeState.ERROR) {
      return Requeue.BACKOFF;
    }
    return switch (next) {
      case POWERING_ON, POWERING_OFF, JOINING, DRAINING -> Requeue.POLL;
      default ->
          o.kube().verdict() == KubeVerdict.UNREACHABLE
                  && o.spec().desiredPowerOrOff() == DesiredPower.OFF
              ? Requeue.POLL
              : Requeue.NEXT_SYNC;
    };
  }

  private static Decision step(Observation o) {
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
}
