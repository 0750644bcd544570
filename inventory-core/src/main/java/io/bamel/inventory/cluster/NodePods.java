package io.bamel.inventory.cluster;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;

/**
 * What the live pods bound to one node add up to: the sum of their requests (each pod's by the
 * scheduler's rule, {@link KubePod#requests()}), how many there are, and how many of them forbid
 * disruption or are unevictable. Sums are exact ({@link BigDecimal}), so a total kept up to date by
 * adding and taking away pods ({@link #plus}, {@link #minus}) never drifts from one computed
 * afresh. Immutable; a zero sum is left out of {@code requests}.
 *
 * @param requests per Kubernetes resource name, the sum of the pods' requests (base units)
 * @param pods how many live pods are bound to the node
 * @param doNotDisrupt how many of them forbid disruption ({@link KubePod#doNotDisrupt()})
 * @param unevictable how many of them are workloads without a controller (a drain cannot move them)
 */
public record NodePods(
    Map<String, BigDecimal> requests, int pods, int doNotDisrupt, int unevictable) {

  /** No pods. */
  public static final NodePods NONE = new NodePods(Map.of(), 0, 0, 0);

  /** Copies the map. */
  public NodePods {
    requests = Map.copyOf(requests);
  }

  /**
   * Whether {@code pod} counts toward its node's total: it is bound to a node and has not finished.
   */
  public static boolean counts(KubePod pod) {
    return pod.nodeName() != null && !pod.terminated();
  }

  /** Whether {@code pod} (counted) is a workload without a controller. */
  static boolean unevictable(KubePod pod) {
    return pod.workload() && pod.ownerKind() == null;
  }

  /** This total with {@code pod} added. */
  public NodePods plus(KubePod pod) {
    return with(pod, 1);
  }

  /** This total with {@code pod} (added before) taken away. */
  public NodePods minus(KubePod pod) {
    return with(pod, -1);
  }

  /** Whether no pod is counted. */
  public boolean isEmpty() {
    return pods == 0;
  }

  private NodePods with(KubePod pod, int sign) {
    Map<String, BigDecimal> sums = new HashMap<>(requests);
    add(sums, pod.requests(), sign);
    return new NodePods(
        sums,
        pods + sign,
        doNotDisrupt + (pod.doNotDisrupt() ? sign : 0),
        unevictable + (unevictable(pod) ? sign : 0));
  }

  private static void add(Map<String, BigDecimal> sums, Map<String, BigDecimal> amounts, int sign) {
    amounts.forEach(
        (name, amount) -> {
          BigDecimal sum = sums.getOrDefault(name, BigDecimal.ZERO);
          sum = sign > 0 ? sum.add(amount) : sum.subtract(amount);
          if (sum.signum() == 0) {
            sums.remove(name);
          } else {
            sums.put(name, sum.stripTrailingZeros()); // 1.5 - 0.5 equals 1, as computed afresh
          }
        });
  }

  /**
   * A running total over many pods that does not copy on each addition (a summary computed from a
   * full list). Not thread-safe.
   */
  static final class Builder {
    private final Map<String, BigDecimal> sums = new HashMap<>();
    private int pods;
    private int doNotDisrupt;
    private int unevictable;

    /** Adds {@code pod} (counted); returns this. */
    Builder add(KubePod pod) {
      NodePods.add(sums, pod.requests(), 1);
      pods++;
      doNotDisrupt += pod.doNotDisrupt() ? 1 : 0;
      unevictable += unevictable(pod) ? 1 : 0;
      return this;
    }

    NodePods build() {
      return new NodePods(sums, pods, doNotDisrupt, unevictable);
    }
  }
}
