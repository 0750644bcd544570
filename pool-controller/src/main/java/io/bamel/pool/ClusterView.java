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
 */
public record ClusterView(
    boolean known,
    String reason,
    Map<String, KubeNode> nodes,
    Map<String, List<KubePod>> podsByNode,
    List<KubePod> unschedulable) {

  /** A view of a cluster that could not be read, and why. */
  public static ClusterView unknown(String reason) {
    return new ClusterView(false, reason, Map.of(), Map.of(), List.of());
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
    return new ClusterView(true, null, byName, byNode, unschedulable);
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

  /** The pods bound to node {@code name} (empty when none). */
  public List<KubePod> podsOn(String name) {
    return podsByNode.getOrDefault(name, List.of());
  }
}
