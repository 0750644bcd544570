package io.bamel.pool;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.ClusterException;
import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.NodePods;
import io.bamel.inventory.cluster.PodSummary;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Kubernetes cluster as one decision cycle sees it, read once for every pool from the cluster's
 * watched cache (the informers of {@link Cluster}; no LIST per cycle): for each node name one
 * {@link Entry} (the Kubernetes node, its allocatable, what the live pods bound to it add up to and
 * each workload pod's requests), and the unschedulable pods. When the cluster could not be read (no
 * integration, cache not synced yet, unreachable API server) it is {@linkplain #known() unknown}
 * with the reason, and every pool's utilization is unknown.
 *
 * <p>The pods are read as the cluster's {@link PodSummary} (per node, what its pods add up to),
 * which a watched cache keeps up to date as events arrive: a cycle costs the number of nodes, not
 * of pods. One map keyed by node name holds everything known of a node, so a member costs one
 * lookup per cycle; a node whose allocatable or pod total did not change since the previous view
 * reuses that view's conversions.
 *
 * @param known whether the cluster was read
 * @param reason why not, when it was not
 * @param entries what is known of each node name (a node, pods bound to it, or both)
 * @param unschedulable pods the scheduler could not place (PodScheduled=False, Unschedulable)
 */
public record ClusterView(
    boolean known, String reason, Map<String, Entry> entries, List<KubePod> unschedulable) {

  /**
   * What the pods bound to one node add up to, as the pool controller counts them.
   *
   * @param requested the sum of their requests (resource names as in {@link KubeResources})
   * @param doNotDisrupt whether one of them is marked {@code bamel.io/do-not-disrupt}
   * @param unevictable whether one of them is a live workload pod without a controller
   * @param pods the requests of each workload pod on it (those a drain moves; DaemonSet and mirror
   *     pods stay), one entry a pod, pods asking the same sharing one {@link Resources}; null when
   *     the cluster did not say ({@link NodePods#workloads()} null)
   */
  public record NodeLoad(
      Resources requested, boolean doNotDisrupt, boolean unevictable, List<Resources> pods) {

    /** No pods. */
    public static final NodeLoad NONE = new NodeLoad(Resources.NONE, false, false, List.of());

    /** Wraps the list. */
    public NodeLoad {
      pods = pods == null ? null : Collections.unmodifiableList(pods);
    }
  }

  /**
   * Everything the view knows of one node name. Filled only while {@link ClusterView#of} builds the
   * view, immutable afterwards.
   */
  public static final class Entry {

    /** A name the view knows nothing of. */
    public static final Entry NONE = new Entry(null, Resources.NONE);

    private final KubeNode node;
    private final Resources allocatable;
    private NodePods pods = NodePods.NONE;
    private NodeLoad load = NodeLoad.NONE;

    private Entry(KubeNode node, Resources allocatable) {
      this.node = node;
      this.allocatable = allocatable;
    }

    /** The Kubernetes node, or null when there is none of this name. */
    public KubeNode node() {
      return node;
    }

    /** Its allocatable as {@link Resources} (names as in {@link KubeResources}); may be empty. */
    public Resources allocatable() {
      return allocatable;
    }

    /** What the live pods bound to it add up to. */
    public NodeLoad load() {
      return load;
    }

    /** Sets the pods' total, converted or, when unchanged since {@code before}, reused. */
    private void load(NodePods total, Entry before) {
      pods = total;
      if (before != null && (before.pods == total || before.pods.equals(total))) {
        load = before.load;
      } else {
        load = load(total);
      }
    }

    private static NodeLoad load(NodePods total) {
      return new NodeLoad(
          KubeResources.of(total.requests()),
          total.doNotDisrupt() > 0,
          total.unevictable() > 0,
          pods(total.workloads()));
    }

    /** Each workload pod's requests, converted once per distinct set of requests. */
    private static List<Resources> pods(Map<Map<String, BigDecimal>, Integer> workloads) {
      if (workloads == null) {
        return null;
      }
      int count = 0;
      for (int n : workloads.values()) {
        count += n;
      }
      List<Resources> out = new ArrayList<>(count);
      workloads.forEach(
          (requests, n) -> {
            Resources r = KubeResources.of(requests);
            for (int i = 0; i < n; i++) {
              out.add(r);
            }
          });
      return out;
    }
  }

  /** Wraps the map. */
  public ClusterView {
    entries = Collections.unmodifiableMap(entries);
    unschedulable = List.copyOf(unschedulable);
  }

  /** A view of a cluster that could not be read, and why. */
  public static ClusterView unknown(String reason) {
    return new ClusterView(false, reason, Map.of(), List.of());
  }

  /** A view of these nodes and pods (finished pods are left out). Pure. */
  public static ClusterView of(List<KubeNode> nodes, List<KubePod> pods) {
    return of(nodes, PodSummary.of(pods), null);
  }

  /** A view of these nodes and pods, reusing what did not change since {@code previous}. Pure. */
  public static ClusterView of(List<KubeNode> nodes, List<KubePod> pods, ClusterView previous) {
    return of(nodes, PodSummary.of(pods), previous);
  }

  /**
   * A view of these nodes and what their pods add up to, reusing {@code previous}'s conversions
   * (null: none) of allocatable amounts and pod totals that did not change (a cycle over 10,000
   * nodes then allocates far less). Pure.
   */
  public static ClusterView of(List<KubeNode> nodes, PodSummary pods, ClusterView previous) {
    Map<String, Entry> entries = new HashMap<>((nodes.size() + pods.byNode().size()) * 4 / 3 + 1);
    for (KubeNode n : nodes) {
      Resources converted = null;
      if (previous != null) {
        Entry before = previous.entries.get(n.name());
        if (before != null
            && before.node != null
            && before.node.allocatable().equals(n.allocatable())) {
          converted = before.allocatable;
        }
      }
      entries.put(
          n.name(),
          new Entry(n, converted != null ? converted : KubeResources.of(n.allocatable())));
    }
    for (Map.Entry<String, NodePods> e : pods.byNode().entrySet()) {
      NodePods total = e.getValue();
      if (total.isEmpty()) {
        continue;
      }
      Entry entry = entries.get(e.getKey());
      if (entry == null) {
        entry = new Entry(null, Resources.NONE);
        entries.put(e.getKey(), entry);
      }
      entry.load(total, previous == null ? null : previous.entries.get(e.getKey()));
    }
    return new ClusterView(true, null, entries, pods.unschedulable());
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
      return of(cluster.nodes(), cluster.podSummary(), previous);
    } catch (ClusterException e) {
      return unknown("Kubernetes API unavailable: " + e.getMessage());
    }
  }

  /** What the view knows of node name {@code name} ({@link Entry#NONE} when nothing). */
  public Entry entry(String name) {
    return entries.getOrDefault(name, Entry.NONE);
  }

  /** The Kubernetes node {@code name}, or null when there is none. */
  public KubeNode node(String name) {
    return entry(name).node();
  }

  /** The allocatable of Kubernetes node {@code name}, empty when it has none. */
  public Resources allocatableOf(String name) {
    return entry(name).allocatable();
  }

  /** What the pods bound to node {@code name} add up to. */
  public NodeLoad loadOn(String name) {
    return entry(name).load();
  }
}
