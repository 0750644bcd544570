package io.bamel.inventory.cluster;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.pcollections.HashTreePMap;
import org.pcollections.PMap;

/**
 * What the live pods bound to one node add up to: the sum of their requests (each pod's by the
 * scheduler's rule, {@link KubePod#requests()}), how many there are, how many of them forbid
 * disruption or are unevictable, and the requests of each pod a drain would move (so a pool can
 * check that they fit on its other nodes before it drains this one). Sums are exact ({@link
 * BigDecimal}), so a total kept up to date by adding and taking away pods ({@link #plus}, {@link
 * #minus}) never drifts from one computed afresh. Immutable; a zero sum is left out of {@code
 * requests}. The maps are persistent ({@link PMap}), so {@link #plus} and {@link #minus} share what
 * they do not change instead of copying both maps for each pod.
 *
 * @param requests per Kubernetes resource name, the sum of the pods' requests (base units)
 * @param pods how many live pods are bound to the node
 * @param doNotDisrupt how many of them forbid disruption ({@link KubePod#doNotDisrupt()})
 * @param unevictable how many of them are workloads without a controller (a drain cannot move them)
 * @param workloads how many {@linkplain KubePod#workload() workload} pods among them (those a drain
 *     moves; DaemonSet and mirror pods stay) have each set of requests, keyed by a pod's own map
 *     (not copied); null when not known (a total built without them)
 */
public record NodePods(
    Map<String, BigDecimal> requests,
    int pods,
    int doNotDisrupt,
    int unevictable,
    Map<Map<String, BigDecimal>, Integer> workloads) {

  /** No pods. */
  public static final NodePods NONE = new NodePods(Map.of(), 0, 0, 0, Map.of());

  /**
   * Copies the maps into persistent ones (not the pods' maps that key {@code workloads}; a map
   * already persistent is kept); a null key or value is refused.
   */
  public NodePods {
    requests = persistent(requests);
    workloads = workloads == null ? null : persistent(workloads);
  }

  private static <K, V> PMap<K, V> persistent(Map<K, V> map) {
    if (map instanceof PMap<K, V> kept) {
      return kept;
    }
    map.forEach(
        (k, v) -> {
          Objects.requireNonNull(k, "key");
          Objects.requireNonNull(v, "value");
        });
    return HashTreePMap.from(map);
  }

  /** A total without the workload pods' requests ({@link #workloads()} unknown). */
  public NodePods(Map<String, BigDecimal> requests, int pods, int doNotDisrupt, int unevictable) {
    this(requests, pods, doNotDisrupt, unevictable, null);
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
    PMap<String, BigDecimal> sums = (PMap<String, BigDecimal>) requests;
    for (Map.Entry<String, BigDecimal> e : pod.requests().entrySet()) {
      BigDecimal sum = sum(sums.get(e.getKey()), e.getValue(), sign);
      sums = sum == null ? sums.minus(e.getKey()) : sums.plus(e.getKey(), sum);
    }
    PMap<Map<String, BigDecimal>, Integer> moved =
        (PMap<Map<String, BigDecimal>, Integer>) workloads;
    if (moved != null && pod.workload()) {
      Integer n = moved.get(pod.requests());
      if (sign > 0) {
        moved = moved.plus(pod.requests(), n == null ? 1 : n + 1);
      } else if (n != null) {
        moved = n > 1 ? moved.plus(pod.requests(), n - 1) : moved.minus(pod.requests());
      }
    }
    return new NodePods(
        sums,
        pods + sign,
        doNotDisrupt + (pod.doNotDisrupt() ? sign : 0),
        unevictable + (unevictable(pod) ? sign : 0),
        moved);
  }

  /**
   * {@code sum} (null: zero) with {@code amount} added ({@code sign} 1) or taken away (-1); null
   * when that is zero.
   */
  private static BigDecimal sum(BigDecimal sum, BigDecimal amount, int sign) {
    BigDecimal base = sum == null ? BigDecimal.ZERO : sum;
    BigDecimal next = sign > 0 ? base.add(amount) : base.subtract(amount);
    return next.signum() == 0 ? null : next.stripTrailingZeros(); // 1.5 - 0.5 equals 1
  }

  /**
   * A running total over many pods that does not copy on each addition (a summary computed from a
   * full list). Not thread-safe.
   */
  static final class Builder {
    private final Map<String, BigDecimal> sums = new HashMap<>();
    private final Map<Map<String, BigDecimal>, Integer> workloads = new HashMap<>();
    private int pods;
    private int doNotDisrupt;
    private int unevictable;

    /** Adds {@code pod} (counted); returns this. */
    Builder add(KubePod pod) {
      pod.requests().forEach((name, amount) -> sums.compute(name, (k, sum) -> sum(sum, amount, 1)));
      if (pod.workload()) {
        workloads.merge(pod.requests(), 1, Integer::sum);
      }
      pods++;
      doNotDisrupt += pod.doNotDisrupt() ? 1 : 0;
      unevictable += unevictable(pod) ? 1 : 0;
      return this;
    }

    NodePods build() {
      return new NodePods(sums, pods, doNotDisrupt, unevictable, workloads);
    }
  }
}
