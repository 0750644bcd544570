package io.bamel.node;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.ClusterException;
import io.bamel.inventory.cluster.EvictionResult;
import io.bamel.inventory.cluster.FencedCluster;
import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.NodeNotice;
import io.bamel.inventory.cluster.PodRef;
import io.bamel.inventory.logging.FailureLog;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.UntrustedText;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kubernetes side of reconciling nodes: what the cluster shows about a node (from the cluster's
 * watched cache: no request per node), and the actions (drain, admit, label, uncordon) done there,
 * with Kubernetes Events for drains and transitions. The one read that is a request is the list of
 * a node's pods from the API server before a drain is declared done ({@link #withServerPods}).
 * Every write is fenced ({@link FencedCluster}) by this controller's ownership of the node, asked
 * just before the write: a deposed owner's write is not sent and throws {@link
 * io.bamel.inventory.cluster.ClusterFencedException}. It remembers, per node, why the evictions of
 * its last drain were refused, for the state machine's messages.
 *
 * <p>Nothing is done to a Kubernetes node, and its pods are not looked at, unless it is provably
 * the machine of the inventory node ({@link KubeIdentity}, from the system UUID its BMC reported at
 * inspection, {@code status.hardware.systemUuid}): {@link #observe} shows a node that is not as
 * {@link KubeView.Mode#REFUSED}, and {@link #act} checks again just before every cordon, drain,
 * label or uncordon and throws {@link IdentityRefusedException} instead. A name the cache does not
 * hold is never acted on ({@link KubeNodeUnseenException}: the cache lags the API server, so it
 * cannot be checked), and is shown as {@link KubeView.Mode#ABSENT} only when absence says something
 * about the machine ({@link KubeIdentity#absent}). Transition Events are posted only on a proven
 * node. Thread-safe.
 */
final class NodeKube {

  private static final Logger log = LoggerFactory.getLogger(NodeKube.class);

  private final Cluster cluster;
  private final Ownership ownership;
  private final Map<String, Map<String, String>> blocked = new ConcurrentHashMap<>();

  /** Kubernetes outages: a WARN at the first failed read, an INFO when it answers again. */
  private final FailureLog outage;

  /**
   * Failed lists of a node's pods from the API server, per node: a WARN at the first, an INFO when
   * one answers again.
   */
  private final FailureLog podLists;

  NodeKube(Cluster cluster, Ownership ownership, Clock clock) {
    this.cluster = cluster;
    this.ownership = ownership;
    this.outage = new FailureLog(log, "cluster", "kubernetes-read", clock);
    this.podLists = new FailureLog(log, "node", "drain-pod-list", clock);
  }

  /** The cluster, its writes fenced by this controller's ownership of node {@code id}. */
  private Cluster fenced(String id) {
    return new FencedCluster(cluster, () -> ownership.owns(id), "ownership of node " + id);
  }

  /**
   * What Kubernetes shows about node {@code id}; its pods only when the decision needs them. A
   * named node the cache does not hold is {@link KubeView#ABSENT} unless the inventory has since
   * named another node than the one the machine was last seen as: that is refused as unknown
   * ({@link KubeIdentity#absent}), not read as the machine having left Kubernetes.
   */
  KubeView observe(String id, NodeSpec spec, NodeStatus status) {
    if (!cluster.enabled()) {
      return KubeView.DISABLED;
    }
    String name = kubeName(id, spec);
    if (!cluster.synced()) {
      log.debug("Kubernetes view not synced for node {}", id);
      return KubeView.UNREACHABLE;
    }
    try {
      Optional<KubeNode> node = cluster.node(name);
      outage.recovered("kubernetes");
      if (node.isEmpty()) {
        KubeIdentity.Verdict retargeted = KubeIdentity.absent(name, lastSeen(status));
        return retargeted == null ? KubeView.ABSENT : KubeView.refused(retargeted);
      }
      KubeIdentity.Verdict identity = KubeIdentity.check(id, systemUuid(status), node.get());
      if (!identity.proven()) {
        return KubeView.refused(identity);
      }
      return KubeView.proven(
          node.get(),
          NodeStateMachine.needsPods(spec, status) ? cluster.podsOn(name) : List.of(),
          blocked.getOrDefault(id, Map.of()),
          identity);
    } catch (ClusterException e) {
      log.debug("Kubernetes unavailable for node {}: {}", id, e.getMessage());
      outage.failed("kubernetes", "unavailable", e.getMessage());
      return KubeView.UNREACHABLE;
    }
  }

  /**
   * {@code view} (of node {@code id}, whose pods came from the watched cache) with the pods the API
   * server itself lists on the Kubernetes node ({@link Cluster#serverPodsOn}: one request), for a
   * decision that would otherwise conclude from the cache that no workload is left. When the list
   * fails the answer is {@link KubeView#UNREACHABLE}: nothing is known about the pods, so nothing
   * is concluded (the drain waits, its timer paused, and the next look tries again).
   */
  KubeView withServerPods(String id, NodeSpec spec, KubeView view) {
    String name = kubeName(id, spec);
    try {
      List<KubePod> pods = cluster.serverPodsOn(name);
      podLists.recovered(id);
      KubeView listed = view.withServerPods(pods);
      List<KubePod> missed = listed.workloads();
      if (!missed.isEmpty()) {
        log.info(
            "node {}: the API server lists {} workload pod(s) on {} that the watched cache did not"
                + " show ({}); they are evicted before the node is switched off",
            id,
            missed.size(),
            name,
            PodText.names(missed));
      }
      return listed;
    } catch (ClusterException e) {
      // not drained yet: the node waits and the next look lists again
      podLists.failed(id, "unavailable", e.getMessage());
      return KubeView.UNREACHABLE;
    }
  }

  /**
   * Does the Kubernetes {@code action} for node {@code id}, whose stored status is {@code status}
   * (idempotent), once the Kubernetes node is proven to be this machine.
   *
   * <p>The check is made on the watched cache's copy of the node, the copy the decision saw: a node
   * the cache does not hold (it may have registered since the cache last heard, or been deleted) is
   * not checked, so nothing is sent to it, even though the API server may have it.
   *
   * @throws IdentityRefusedException when it is not: nothing was sent
   * @throws KubeNodeUnseenException when the cache holds no such node: nothing was sent
   */
  void act(String id, NodeSpec spec, NodeStatus status, Action action) {
    String name = kubeName(id, spec);
    KubeNode target =
        cluster.node(name).orElseThrow(() -> new KubeNodeUnseenException(action, name));
    KubeIdentity.Verdict identity = KubeIdentity.check(id, systemUuid(status), target);
    if (!identity.proven()) {
      throw new IdentityRefusedException(action, identity);
    }
    Cluster cluster = fenced(id);
    switch (action.kind()) {
      case DRAIN -> {
        cluster.cordon(name);
        Map<String, String> refused = new HashMap<>();
        for (PodRef pod : action.evict()) {
          EvictionResult result = cluster.evict(pod);
          if (!result.done()) {
            refused.put(pod.toString(), UntrustedText.escape(result.message()));
          }
        }
        blocked.put(id, refused);
        cluster.notice(KubeNotices.drain(name, action.evict(), refused));
      }
      case ADMIT -> {
        cluster.label(name, action.labels());
        cluster.uncordon(name);
        blocked.remove(id);
      }
      case LABEL -> cluster.label(name, action.labels());
      case UNCORDON -> {
        cluster.uncordon(name);
        blocked.remove(id);
      }
      default -> throw new IllegalArgumentException("not a Kubernetes action: " + action.kind());
    }
  }

  /**
   * Posts transition {@code event} of node {@code id} as a Kubernetes Event on its node (rate
   * limited by the cluster; best effort: never throws).
   */
  void noticeTransition(String id, NodeSpec spec, NodeStatus status, NodeEvent event) {
    if (!cluster.enabled()) {
      return;
    }
    NodeNotice notice = KubeNotices.transition(kubeName(id, spec), event);
    if (notice == null) {
      return;
    }
    try {
      Optional<KubeNode> target = cluster.node(notice.nodeName());
      if (target.isEmpty() || !KubeIdentity.check(id, systemUuid(status), target.get()).proven()) {
        return; // an Event is posted only on a node proven to be this machine
      }
      fenced(id).notice(notice);
    } catch (ClusterException e) {
      log.debug("node {}: event {} not posted: {}", id, notice.reason(), e.getMessage());
    }
  }

  /** The system UUID the BMC reported at the node's last inspection, or null. */
  static String systemUuid(NodeStatus status) {
    return status == null || status.hardware() == null ? null : status.hardware().systemUuid();
  }

  /** The Kubernetes node the machine was last seen as ({@code status.kubernetesNode}), or null. */
  static String lastSeen(NodeStatus status) {
    return status == null ? null : status.kubernetesNode();
  }

  /** Forgets what was remembered about node {@code id}. */
  void forget(String id) {
    blocked.remove(id);
    podLists.forget(id);
  }

  /** The Kubernetes node name: {@code kubernetesNodeName}, else the node's name, else its id. */
  static String kubeName(String id, NodeSpec spec) {
    if (spec.kubernetesNodeName() != null && !spec.kubernetesNodeName().isBlank()) {
      return spec.kubernetesNodeName();
    }
    if (spec.name() != null && !spec.name().isBlank()) {
      return spec.name();
    }
    return id;
  }
}
