package io.bamel.pool;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeState;

/**
 * One node of a pool as the scaling policy sees it: its lifecycle state and desired power, whether
 * the pool controller may switch it (policy {@code pool}, no maintenance), its capacity and rack,
 * and what makes it a good or bad choice.
 *
 * @param id the node id
 * @param state the node controller's state
 * @param desired the desired power state in the spec
 * @param managed whether the pool controller owns its power ({@code powerPolicy: pool})
 * @param maintenance whether power actions are suspended
 * @param capacity what the node offers (allocatable in Kubernetes, else the inventory's)
 * @param rack the rack, or null
 * @param recentFailures failed power-ons and joins in the recent past
 * @param canPowerOff whether its driver can switch it off (Wake-on-LAN without a command cannot)
 * @param canPowerOn whether it has a power driver that can switch it on (a power interface)
 * @param doNotDisrupt whether the node or one of its pods is marked {@code bamel.io/do-not-disrupt}
 * @param hasUnevictablePods whether pods on it cannot be evicted (no controller, local storage...)
 * @param requested the sum of requests of the pods on it (for picking the least utilized)
 * @param joinTimedOut whether it has been joining longer than its join timeout
 * @param settling whether it became ready less than {@link #SETTLE_TIME} ago: the scheduler may not
 *     have placed pending pods on it yet, so its free room still counts as coming
 * @param notReady whether its Kubernetes node has been NotReady (or gone) for at least the pool's
 *     not-ready timeout ({@code timeouts.notReady}, from the status's {@code notReadySince}): it is
 *     neither capacity nor capacity on its way, even while the node controller power-cycles it
 * @param pods the requests of each pod a drain would move off it (workload pods; DaemonSet and
 *     mirror pods stay), or null when not known (then it is never {@linkplain Consolidation
 *     consolidated})
 * @param idleWatts its configured idle draw ({@code idlePowerWatts}), or null: what switching it
 *     off saves, for {@linkplain Consolidation consolidation}'s choice between nodes
 */
public record Member(
    String id,
    NodeState state,
    DesiredPower desired,
    boolean managed,
    boolean maintenance,
    Resources capacity,
    String rack,
    int recentFailures,
    boolean canPowerOff,
    boolean canPowerOn,
    boolean doNotDisrupt,
    boolean hasUnevictablePods,
    Resources requested,
    boolean joinTimedOut,
    boolean settling,
    boolean notReady,
    java.util.List<Resources> pods,
    Double idleWatts) {

  /** Wraps the list of pods. */
  public Member {
    pods = pods == null ? null : java.util.Collections.unmodifiableList(pods);
  }

  /** How long a newly ready node's free room is counted for pending pods (scheduler catch-up). */
  public static final java.time.Duration SETTLE_TIME = java.time.Duration.ofSeconds(30);

  /** Whether the node is capacity the pool can count on now or soon. */
  public boolean isCapacity() {
    if (maintenance || state == NodeState.ERROR || joinTimedOut || notReady) {
      return false;
    }
    return switch (state) {
      case READY, JOINING, POWERING_ON -> desired == DesiredPower.ON;
      case OFF, UNKNOWN -> desired == DesiredPower.ON;
      default -> false;
    };
  }

  /** Whether the node is serving workloads (ready, not NotReady too long, meant to stay on). */
  public boolean isReady() {
    return state == NodeState.READY && desired == DesiredPower.ON && !maintenance && !notReady;
  }

  /** Whether the node is on its way up (desired on, not ready yet). */
  public boolean isComingUp() {
    return desired == DesiredPower.ON && state != NodeState.READY && isCapacity();
  }

  /** Whether the node is on its way down (desired off, not off yet). */
  public boolean isGoingDown() {
    return desired == DesiredPower.OFF
        && state != NodeState.OFF
        && state != NodeState.ERROR
        && state != NodeState.UNKNOWN;
  }

  /**
   * Whether the pool may switch this node on: it would be a candidate and nothing excludes it (its
   * BMC answered at the last sync, not in error, not in maintenance, a driver can switch it on).
   */
  public boolean canBePoweredOn() {
    return wouldBeCandidate() && powerOnExclusion() == null;
  }

  /**
   * Whether the pool would consider this node for power-on if nothing excluded it: it owns the
   * node's power, the node is meant to be off and is off, unknown or in error.
   */
  public boolean wouldBeCandidate() {
    return managed
        && desired == DesiredPower.OFF
        && (state == NodeState.OFF || state == NodeState.UNKNOWN || state == NodeState.ERROR);
  }

  /** Why this node may not be switched on, or null when nothing excludes it. */
  public String powerOnExclusion() {
    if (maintenance) {
      return "in maintenance";
    }
    if (state == NodeState.ERROR) {
      return "in error";
    }
    if (state == NodeState.UNKNOWN) {
      return "BMC unreachable at the last sync";
    }
    if (!canPowerOn) {
      return "no power driver can switch it on";
    }
    return null;
  }

  /** Whether the pool may switch this node off. */
  public boolean canBePoweredOff() {
    return managed && isReady() && canPowerOff && !doNotDisrupt && !hasUnevictablePods;
  }

  /** Whether no pod requests anything on it. */
  public boolean isEmpty() {
    return requested.isEmpty();
  }
}
