package io.bamel.node;

import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import java.util.List;
import java.util.Map;

/**
 * What Kubernetes showed about a node when it was reconciled.
 *
 * @param mode whether there is integration, whether it answered, whether the node exists
 * @param node the Kubernetes node when {@link Mode#PRESENT}, else null
 * @param pods the pods bound to it (every kind; the state machine picks the workloads), when
 *     fetched; else empty
 * @param blocked why earlier evictions of pods on it were refused, by pod ({@code ns/name})
 */
public record KubeView(Mode mode, KubeNode node, List<KubePod> pods, Map<String, String> blocked) {

  /** How far Kubernetes could be seen. */
  public enum Mode {
    /** No Kubernetes integration is configured. */
    DISABLED,
    /** Integration is configured but the API server did not answer. */
    UNREACHABLE,
    /** The API server answered: there is no such node. */
    ABSENT,
    /** The API server answered with the node. */
    PRESENT
  }

  /** Copies the collections. */
  public KubeView {
    pods = pods == null ? List.of() : List.copyOf(pods);
    blocked = blocked == null ? Map.of() : Map.copyOf(blocked);
  }

  /** No Kubernetes integration. */
  public static final KubeView DISABLED = new KubeView(Mode.DISABLED, null, List.of(), Map.of());

  /** The API server did not answer. */
  public static final KubeView UNREACHABLE =
      new KubeView(Mode.UNREACHABLE, null, List.of(), Map.of());

  /** The API server has no such node. */
  public static final KubeView ABSENT = new KubeView(Mode.ABSENT, null, List.of(), Map.of());

  /** The node, with the pods on it. */
  public static KubeView present(KubeNode node, List<KubePod> pods, Map<String, String> blocked) {
    return new KubeView(Mode.PRESENT, node, pods, blocked);
  }

  /** The workload pods on the node (not finished, not DaemonSet, not mirror pods). */
  public List<KubePod> workloads() {
    return pods.stream().filter(KubePod::workload).toList();
  }

  /** What the state machine concludes from this view. */
  public KubeVerdict verdict() {
    return KubeVerdict.of(this);
  }
}
