package io.bamel.pool;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.NodeTimeouts;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PowerPolicy;
import io.bamel.inventory.model.ResourceCapacity;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Builds a pool's {@link PoolSnapshot} from the inventory's view of its members, one read of the
 * cluster, the triggers' votes and the pool's memory. Pure.
 *
 * <ul>
 *   <li>A member's Kubernetes node is named by its status ({@code kubernetesNode}), else its spec
 *       ({@code kubernetesNodeName}), else its id.
 *   <li>Capacity: the Kubernetes node's allocatable when it has one, else the inventory's
 *       resources.
 *   <li>Utilization: the requests of the pods on the pool's ready members over their allocatable,
 *       per resource, counting members that are ready in the inventory and whose Kubernetes node is
 *       Ready. Unknown when the cluster could not be read or a ready member has no Kubernetes node.
 *   <li>Pending pods: none; the controller first assigns every unschedulable pod to the one pool
 *       that serves it ({@link PodPools}, which needs every pool's members), then adds each pool's
 *       with {@link #pending} and {@link PoolSnapshot#withPending}.
 *   <li>Member facts: do-not-disrupt from the Kubernetes node, any of its pods, or the inventory
 *       label {@code bamel.io/do-not-disrupt}; unevictable pods are live workload pods without a
 *       controller; recent failures are the status's {@code errorCount}; a joining member whose
 *       step timer (else time in state) passed the pool's join timeout has timed out.
 * </ul>
 */
public final class SnapshotBuilder {

  private SnapshotBuilder() {}

  /**
   * The snapshot of a pool, without pending pods.
   *
   * @param config the pool's config (defaults apply)
   * @param members the member nodes from the inventory cache
   * @param view the cluster as read this cycle
   * @param votes the triggers' votes
   * @param memory what earlier decisions left
   * @param canPowerOff whether a node's driver can switch it off
   * @param now the time of the decision
   */
  public static PoolSnapshot build(
      PoolConfig config,
      Collection<Node> members,
      ClusterView view,
      Votes votes,
      PoolMemory memory,
      Predicate<Node> canPowerOff,
      Instant now) {
    PoolConfig c = config.withDefaults();
    NodeTimeouts timeouts = c.timeouts();
    List<Member> out = new ArrayList<>(members.size());
    Resources.Sum requested = new Resources.Sum();
    Resources.Sum allocatable = new Resources.Sum();
    List<String> missing = new ArrayList<>();
    for (Node node : members) {
      String kubeName = kubeName(node);
      ClusterView.Entry entry = view.entry(kubeName);
      KubeNode kube = entry.node();
      Member m =
          member(
              node, kube, entry.allocatable(), entry.load(), canPowerOff.test(node), timeouts, now);
      out.add(m);
      if (m.isReady() && view.known()) {
        if (kube == null) {
          missing.add(node.id());
        } else if (kube.ready()) {
          requested.add(m.requested());
          allocatable.add(m.capacity());
        }
      }
    }
    Utilization utilization;
    if (!view.known()) {
      utilization = Utilization.unknown(view.reason());
    } else if (!missing.isEmpty()) {
      utilization =
          Utilization.unknown(
              "no Kubernetes node for ready member "
                  + missing.get(0)
                  + (missing.size() > 1 ? " and " + (missing.size() - 1) + " more" : ""));
    } else {
      utilization = Utilization.of(requested.build(), allocatable.build());
    }
    return new PoolSnapshot(
        out,
        utilization,
        List.of(),
        votes.up(),
        votes.down(),
        votes.downTriggers(),
        memory.lowSince(),
        memory.lastScaleUp());
  }

  /**
   * The pending pods of a pool with {@code config}: {@code pods} (those it serves) with their
   * requests in the considered resources and {@code gpu}.
   */
  public static List<PendingPod> pending(List<KubePod> pods, PoolConfig config) {
    Set<String> considered = new HashSet<>(config.withDefaults().resources());
    considered.add(ResourceCapacity.GPU);
    List<PendingPod> out = new ArrayList<>(pods.size());
    for (KubePod p : pods) {
      out.add(
          new PendingPod(
              p.ref().namespace() + "/" + p.ref().name(),
              only(KubeResources.of(p.requests()), considered)));
    }
    return out;
  }

  /** The name of {@code node}'s Kubernetes node. */
  public static String kubeName(Node node) {
    NodeStatus status = node.status();
    if (status != null && status.kubernetesNode() != null) {
      return status.kubernetesNode();
    }
    if (node.spec().kubernetesNodeName() != null) {
      return node.spec().kubernetesNodeName();
    }
    return node.id();
  }

  static Member member(
      Node node,
      KubeNode kube,
      Resources allocatable,
      ClusterView.NodeLoad load,
      boolean canPowerOff,
      NodeTimeouts timeouts,
      Instant now) {
    var spec = node.spec();
    NodeState state = node.state();
    Resources capacity =
        kube != null && !allocatable.isEmpty() ? allocatable : Resources.from(spec.capacity());
    Resources requested = load.requested();
    boolean doNotDisrupt =
        load.doNotDisrupt()
            || kube != null && kube.doNotDisrupt()
            || "true".equalsIgnoreCase(spec.labels().getOrDefault(Cluster.DO_NOT_DISRUPT, ""));
    boolean unevictable = load.unevictable();
    NodeStatus status = node.status();
    int failures = status == null || status.errorCount() == null ? 0 : status.errorCount();
    boolean joinTimedOut =
        state == NodeState.JOINING
            && status != null
            && stepTime(status, now).compareTo(timeouts.join()) > 0;
    return new Member(
        node.id(),
        state,
        spec.desiredPowerOrOff(),
        spec.effectivePowerPolicy() == PowerPolicy.POOL,
        spec.inMaintenance(),
        capacity,
        spec.rack(),
        failures,
        canPowerOff,
        spec.powerInterface() != null,
        doNotDisrupt,
        unevictable,
        requested,
        joinTimedOut,
        state == NodeState.READY
            && status != null
            && status.stateSince() != null
            && Duration.between(status.stateSince(), now).compareTo(Member.SETTLE_TIME) < 0,
        notReadyTooLong(status, timeouts.notReady(), now),
        load.pods(),
        spec.idlePowerWatts());
  }

  /**
   * Whether {@code status} shows a Kubernetes node NotReady (or gone) since at least {@code
   * timeout} before {@code now} ({@code notReadySince}, written by the node controller).
   */
  static boolean notReadyTooLong(NodeStatus status, Duration timeout, Instant now) {
    return status != null
        && status.notReadySince() != null
        && Duration.between(status.notReadySince(), now).compareTo(timeout) >= 0;
  }

  /** How long the current step has taken: the step timer, else the time in the state. */
  static Duration stepTime(NodeStatus status, Instant now) {
    if (status.timerStarted() != null || status.timerElapsed() != null) {
      return status.timerAt(now);
    }
    if (status.stateSince() != null && now.isAfter(status.stateSince())) {
      return Duration.between(status.stateSince(), now);
    }
    return Duration.ZERO;
  }

  private static Resources only(Resources r, Set<String> names) {
    Map<String, Double> kept = new HashMap<>();
    r.amounts()
        .forEach(
            (k, v) -> {
              if (names.contains(k)) {
                kept.put(k, v);
              }
            });
    return new Resources(kept);
  }
}
