package io.bamel.pool;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.ClusterException;
import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Kubernetes cluster as one decision cycle sees it, read once for every pool: nodes by name,
 * the live pods bound to each node, and the unschedulable pods. When the cluster could not be read
 * (no integration, unreachable API server) it is {@linkplain #known() unknown} with the reason, and
 * every pool's utilization is unknown.
 *
 * @param known whether the cluster was read
 * @param reason why not, when it was not
 * @param nodes Kubernetes nodes by name
 * @param podsByNode pods not yet finished, by the node they are bound to
 * @param unschedulable pods the scheduler could not place (PodScheduled=False, Unschedulable)
 * @param loads what the pods on each node add up to
 */
public record ClusterView(
    boolean known,
    String reason,
    Map<String, KubeNode> nodes,
    Map<String, List<KubePod>> podsByNode,
    List<KubePod> unschedulable,
    Map<String, NodeLoad> loads) {

  /**
   * What the pods bound to one node add up to, computed once per cycle.
   *
   * @param requested the sum of their requests (resource names as in {@link KubeResources})
   * @param doNotDisrupt whether one of them is marked {@code bamel.io/do-not-disrupt}
   * @param unevictable whether one of them is a live workload pod without a controller
   */
  public record NodeLoad(Resources requested, boolean doNotDisrupt, boolean unevictable) {

    /** No pods. */
    public static final NodeLoad NONE = new NodeLoad(Resources.NONE, false, false);
  }

  /** A view of a cluster that could not be read, and why. */
  public static ClusterView unknown(String reason) {
    return new ClusterView(false, reason, Map.of(), Map.of(), List.of(), Map.of());
  }

  /** A view of these nodes and pods (finished pods are left out). Pure. */
  public static ClusterView of(List<KubeNode> nodes, List<KubePod> pods) {
    Map<String, KubeNode> byName = new HashMap<>(nodes.size() * 2);
    for (KubeNode n : nodes) {
      byName.put(n.name(), n);
    }
    Map<String, List<KubePod>> byNode = new HashMap<>();
    List<KubePod> unschedulable = new ArrayList<>();
    for (KubePod p : pods) {
      if (p.terminated()) {
        continue;
      }
      if (p.nodeName() != null) {
        byNode.computeIfAbsent(p.nodeName(), k -> new ArrayList<>()).add(p);
      } else if (p.unschedulable()) {
        unschedulable.add(p);
      }
    }
    Map<String, NodeLoad> loads = new HashMap<>(byNode.size() * 2);
    byNode.forEach((node, onNode) -> loads.put(node, load(onNode)));
    return new ClusterView(true, null, byName, byNode, unschedulable, loads);
  }

  private static NodeLoad load(List<KubePod> pods) {
    Map<String, Double> sum = new HashMap<>();
    boolean doNotDisrupt = false;
    boolean unevictable = false;
    for (KubePod p : pods) {
      p.requests()
          .forEach((k, v) -> sum.merge(KubeResources.name(k), v.doubleValue(), Double::sum));
      doNotDisrupt |= p.doNotDisrupt();
      unevictable |= p.workload() && p.ownerKind() == null;
    }
    return new NodeLoad(new Resources(sum), doNotDisrupt, unevictable);
  }

  /** Reads {@code cluster}; never throws: an unavailable cluster gives an unknown view. */
  public static ClusterView read(Cluster cluster) {
    if (!cluster.enabled()) {
      return unknown("no Kubernetes integration");
    }
    try {
      return of(cluster.nodes(), cluster.pods());
    } catch (ClusterException e) {
      return unknown("Kubernetes API unavailable: " + e.getMessage());
    }
  }

  /** What the pods bound to node {@code name} add up to. */
  public NodeLoad loadOn(String name) {
    return loads.getOrDefault(name, NodeLoad.NONE);
  }

  /** The pods bound to node {@code name} (empty when none). */
  public List<KubePod> podsOn(String name) {
    return podsByNode.getOrDefault(name, List.of());
  }
}
