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
 * The Kubernetes cluster as one decision cycle sees it, read once for every pool from the cluster's
 * watched cache (the informers of {@link Cluster}; no LIST per cycle): nodes by name, what the live
 * pods bound to each node add up to, and the unschedulable pods. When the cluster could not be read
 * (no integration, cache not synced yet, unreachable API server) it is {@linkplain #known()
 * unknown} with the reason, and every pool's utilization is unknown.
 *
 * @param known whether the cluster was read
 * @param reason why not, when it was not
 * @param nodes Kubernetes nodes by name
 * @param unschedulable pods the scheduler could not place (PodScheduled=False, Unschedulable)
 * @param loads what the pods on each node add up to
 * @param allocatable each node's allocatable as {@link Resources} (names as in {@link
 *     KubeResources})
 */
public record ClusterView(
    boolean known,
    String reason,
    Map<String, KubeNode> nodes,
    List<KubePod> unschedulable,
    Map<String, NodeLoad> loads,
    Map<String, Resources> allocatable) {

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
    return new ClusterView(false, reason, Map.of(), List.of(), Map.of(), Map.of());
  }

  /** A view of these nodes and pods (finished pods are left out). Pure. */
  public static ClusterView of(List<KubeNode> nodes, List<KubePod> pods) {
    return of(nodes, pods, null);
  }

  /**
   * A view of these nodes and pods, reusing {@code previous}'s conversions of allocatable amounts
   * that did not change (a cycle over 10,000 nodes then allocates far less). Pure.
   */
  public static ClusterView of(List<KubeNode> nodes, List<KubePod> pods, ClusterView previous) {
    Map<String, KubeNode> byName = new HashMap<>(nodes.size() * 2);
    Map<String, Resources> allocatable = new HashMap<>(nodes.size() * 2);
    for (KubeNode n : nodes) {
      byName.put(n.name(), n);
      Resources converted = null;
      if (previous != null) {
        KubeNode before = previous.nodes.get(n.name());
        if (before != null && before.allocatable().equals(n.allocatable())) {
          converted = previous.allocatable.get(n.name());
        }
      }
      allocatable.put(n.name(), converted != null ? converted : KubeResources.of(n.allocatable()));
    }
    Map<String, Load> loads = new HashMap<>(nodes.size() * 2);
    List<KubePod> unschedulable = new ArrayList<>();
    for (KubePod p : pods) {
      if (p.terminated()) {
        continue;
      }
      if (p.nodeName() != null) {
        loads.computeIfAbsent(p.nodeName(), k -> new Load()).add(p);
      } else if (p.unschedulable()) {
        unschedulable.add(p);
      }
    }
    Map<String, NodeLoad> done = new HashMap<>(loads.size() * 2);
    loads.forEach((node, load) -> done.put(node, load.build()));
    return new ClusterView(true, null, byName, unschedulable, done, allocatable);
  }

  /** A running total of the pods on one node. */
  private static final class Load {
    private final Resources.Sum sum = new Resources.Sum();
    private boolean doNotDisrupt;
    private boolean unevictable;

    void add(KubePod p) {
      p.requests().forEach((k, v) -> sum.add(KubeResources.name(k), v.doubleValue()));
      doNotDisrupt |= p.doNotDisrupt();
      unevictable |= p.workload() && p.ownerKind() == null;
    }

    NodeLoad build() {
      return new NodeLoad(sum.build(), doNotDisrupt, unevictable);
    }
  }

  /** Reads {@code cluster}; never throws: an unavailable cluster gives an unknown view. */
  public static ClusterView read(Cluster cluster) {
    return read(cluster, null);
  }

  /** Reads {@code cluster}, reusing what did not change since {@code previous} (null: none). */
  public static ClusterView read(Cluster cluster, ClusterView previous) {
    if (!cluster.enabled()) {
      return unknown("no Kubernetes integration");
    }
    if (!cluster.synced()) {
      return unknown(
          "Kubernetes cache not synced (watches still listing, or the API server did not answer)");
    }
    try {
      return of(cluster.nodes(), cluster.pods(), previous);
    } catch (ClusterException e) {
      return unknown("Kubernetes API unavailable: " + e.getMessage());
    }
  }

  /** The allocatable of Kubernetes node {@code name}, empty when it has none. */
  public Resources allocatableOf(String name) {
    return allocatable.getOrDefault(name, Resources.NONE);
  }

  /** What the pods bound to node {@code name} add up to. */
  public NodeLoad loadOn(String name) {
    return loads.getOrDefault(name, NodeLoad.NONE);
  }
}
