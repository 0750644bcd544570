package io.bamel.pool;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.NodeRequirement;
import java.util.List;

/**
 * Where a pod may land as far as the node label {@code bamel.io/pool} is concerned, with the
 * scheduler's semantics: its {@code nodeSelector} and its required node affinity must both match;
 * the affinity's node selector terms are ORed, the requirements within one term ANDed. Pure.
 *
 * <p>Requirements on the pool label support {@code In}, {@code NotIn}, {@code Exists} and {@code
 * DoesNotExist} ({@code Gt}/{@code Lt} compare the label as an integer, as Kubernetes does, so they
 * match no pool name that is not a number). Requirements on other labels are taken as met: the pool
 * controller does not know the labels of nodes that are off, and a pool's nodes are alike. A term
 * without requirements matches nothing, as in Kubernetes.
 *
 * @param nodeSelectorPool the value its {@code nodeSelector} requires of {@code bamel.io/pool}, or
 *     null when it requires none
 * @param requiredTerms the node selector terms of its required node affinity ({@link
 *     KubePod#requiredNodeTerms()}), or null when it has none
 */
public record PodPlacement(String nodeSelectorPool, List<List<NodeRequirement>> requiredTerms) {

  /** Copies the terms. */
  public PodPlacement {
    requiredTerms =
        requiredTerms == null ? null : requiredTerms.stream().map(List::copyOf).toList();
  }

  /** A pod that does not restrict the pool. */
  public static final PodPlacement ANYWHERE = new PodPlacement(null, null);

  /**
   * The placement of {@code pod} from what the cluster port gives: its node selector's pool value
   * and its required node affinity's terms ({@link KubePod#requiredNodeTerms()}) as they are, so
   * ANDed expressions, {@code NotIn}, {@code Exists} and the others are evaluated exactly. A pod
   * without required node affinity has no terms (null).
   */
  public static PodPlacement of(KubePod pod) {
    String selected = pod.nodeSelector().get(Cluster.POOL_LABEL);
    List<List<NodeRequirement>> terms =
        pod.requiredNodeTerms().isEmpty() ? null : pod.requiredNodeTerms();
    return new PodPlacement(selected, terms);
  }

  /** Whether a node whose pool label is {@code pool} (null: a node without one) may run the pod. */
  public boolean allows(String pool) {
    if (nodeSelectorPool != null && !nodeSelectorPool.equals(pool)) {
      return false;
    }
    if (requiredTerms == null) {
      return true;
    }
    for (List<NodeRequirement> term : requiredTerms) {
      if (!term.isEmpty() && term.stream().allMatch(r -> meets(r, pool))) {
        return true;
      }
    }
    return false;
  }

  /** Whether the pod may also run on a node of no pool: it does not require one. */
  public boolean needsNoPool() {
    return allows(null);
  }

  /** Whether a node whose pool label is {@code pool} (null: none) meets requirement {@code r}. */
  private static boolean meets(NodeRequirement r, String pool) {
    if (!Cluster.POOL_LABEL.equals(r.key())) {
      return true;
    }
    List<String> values = r.values();
    return switch (r.operator() == null ? "" : r.operator()) {
      case "In" -> pool != null && values.contains(pool);
      case "NotIn" -> pool == null || !values.contains(pool);
      case "Exists" -> pool != null;
      case "DoesNotExist" -> pool == null;
      case "Gt" -> compare(pool, values) > 0;
      case "Lt" -> compare(pool, values) < 0 && compare(pool, values) != NOT_COMPARABLE;
      default -> false;
    };
  }

  private static final int NOT_COMPARABLE = Integer.MIN_VALUE;

  private static int compare(String pool, List<String> values) {
    if (pool == null || values.size() != 1) {
      return NOT_COMPARABLE;
    }
    try {
      return Long.compare(Long.parseLong(pool), Long.parseLong(values.get(0)));
    } catch (NumberFormatException e) {
      return NOT_COMPARABLE;
    }
  }
}
