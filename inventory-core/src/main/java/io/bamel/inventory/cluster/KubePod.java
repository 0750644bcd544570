package io.bamel.inventory.cluster;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.immutables.value.Value;

/**
 * A pod as the controllers need it.
 *
 * @param ref namespace and name
 * @param nodeName the node it is bound to, or null while unscheduled
 * @param phase {@code Pending}, {@code Running}, {@code Succeeded}, {@code Failed} or {@code
 *     Unknown}
 * @param requests the sum of its containers' resource requests, in base units (see {@link
 *     KubeNode#allocatable()})
 * @param scheduled the status of its {@code PodScheduled} condition: true, false, or null when the
 *     condition is absent
 * @param scheduledReason the reason of that condition ({@code Unschedulable}), or null
 * @param ownerKind the kind of its controlling owner ({@code ReplicaSet}, {@code DaemonSet}, ...),
 *     or null
 * @param labels its labels
 * @param annotations its annotations
 * @param nodeSelector its {@code spec.nodeSelector}
 * @param requiredPools a summary: the union of the {@code bamel.io/pool} values named by its node
 *     selector and by the {@code In} expressions of its required node affinity; empty when it names
 *     none. It cannot express ANDed expressions, {@code NotIn} or {@code Exists}: to decide where
 *     the pod may land, use {@code nodeSelector} and {@code requiredNodeTerms}
 * @param requiredNodeTerms the {@code nodeSelectorTerms} of its {@code
 *     requiredDuringSchedulingIgnoredDuringExecution} node affinity, in order: the terms are ORed,
 *     the requirements within one term ANDed (its {@code matchExpressions}, then its {@code
 *     matchFields} keyed by field name). Empty when the pod has no required node affinity (null
 *     reads as empty); a term without requirements is kept, as an empty list (it matches no node)
 */
@Value.Builder
public record KubePod(
    PodRef ref,
    String nodeName,
    String phase,
    Map<String, BigDecimal> requests,
    Boolean scheduled,
    String scheduledReason,
    String ownerKind,
    Map<String, String> labels,
    Map<String, String> annotations,
    Map<String, String> nodeSelector,
    Set<String> requiredPools,
    List<List<NodeRequirement>> requiredNodeTerms) {

  /** Copies the collections. */
  public KubePod {
    requests = requests == null ? Map.of() : Map.copyOf(requests);
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    nodeSelector = nodeSelector == null ? Map.of() : Map.copyOf(nodeSelector);
    requiredPools = requiredPools == null ? Set.of() : Set.copyOf(requiredPools);
    requiredNodeTerms =
        requiredNodeTerms == null
            ? List.of()
            : requiredNodeTerms.stream().map(List::copyOf).toList();
  }

  /**
   * A builder with every component unset: a missing collection is empty, the rest null
   * (docs/architecture.md#generated-builders).
   */
  public static KubePodBuilder builder() {
    return new KubePodBuilder();
  }

  /** Whether a DaemonSet owns it (drains skip it). */
  public boolean daemonSet() {
    return "DaemonSet".equals(ownerKind);
  }

  /** Whether it is a mirror pod of a static pod (drains skip it: it cannot be evicted). */
  public boolean mirror() {
    return annotations.containsKey(Cluster.MIRROR_POD);
  }

  /**
   * Whether an annotation forbids disrupting it: {@code bamel.io/do-not-disrupt: "true"}, {@code
   * karpenter.sh/do-not-disrupt: "true"} or {@code cluster-autoscaler.kubernetes.io/safe-to-evict:
   * "false"} ({@link DisruptionAnnotations}).
   */
  public boolean doNotDisrupt() {
    return doNotDisruptAnnotation() != null;
  }

  /** The annotation that forbids disrupting it, as {@code name: "value"}, or null. */
  public String doNotDisruptAnnotation() {
    return DisruptionAnnotations.podBlocker(annotations);
  }

  /** Whether it has finished ({@code Succeeded} or {@code Failed}). */
  public boolean terminated() {
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  /**
   * Whether it is a workload a drain must move: not finished, not a DaemonSet pod, not a mirror
   * pod.
   */
  public boolean workload() {
    return !terminated() && !daemonSet() && !mirror();
  }

  /**
   * Whether the scheduler could not place it ({@code PodScheduled=False}, {@code Unschedulable}).
   */
  public boolean unschedulable() {
    return Boolean.FALSE.equals(scheduled) && "Unschedulable".equals(scheduledReason);
  }
}
