package io.bamel.inventory.cluster;

import java.math.BigDecimal;
import java.util.Map;

/**
 * A Kubernetes node as the controllers need it.
 *
 * @param name the node name
 * @param ready whether its {@code Ready} condition is {@code True}
 * @param unschedulable whether it is cordoned
 * @param labels its labels
 * @param annotations its annotations
 * @param allocatable allocatable resources in base units (cores for {@code cpu}, bytes for {@code
 *     memory}, a count for {@code pods} and extended resources such as {@code nvidia.com/gpu})
 * @param systemUuid the machine's SMBIOS system UUID as its kubelet reports it ({@code
 *     status.nodeInfo.systemUUID}), or null
 * @param providerId the node's {@code spec.providerID} (the kubelet's {@code --provider-id}), or
 *     null
 */
public record KubeNode(
    String name,
    boolean ready,
    boolean unschedulable,
    Map<String, String> labels,
    Map<String, String> annotations,
    Map<String, BigDecimal> allocatable,
    String systemUuid,
    String providerId) {

  /** A node whose kubelet reports no identity (no system UUID, no provider ID). */
  public KubeNode(
      String name,
      boolean ready,
      boolean unschedulable,
      Map<String, String> labels,
      Map<String, String> annotations,
      Map<String, BigDecimal> allocatable) {
    this(name, ready, unschedulable, labels, annotations, allocatable, null, null);
  }

  /** Copies the maps. */
  public KubeNode {
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    allocatable = allocatable == null ? Map.of() : Map.copyOf(allocatable);
  }

  /**
   * Whether an annotation forbids disrupting the node: {@code bamel.io/do-not-disrupt: "true"},
   * {@code karpenter.sh/do-not-disrupt: "true"} or {@code
   * cluster-autoscaler.kubernetes.io/scale-down-disabled: "true"} ({@link DisruptionAnnotations}).
   */
  public boolean doNotDisrupt() {
    return doNotDisruptAnnotation() != null;
  }

  /** The annotation that forbids disrupting the node, as {@code name: "value"}, or null. */
  public String doNotDisruptAnnotation() {
    return DisruptionAnnotations.nodeBlocker(annotations);
  }

  /** The value of its {@code bamel.io/pool} label, or null. */
  public String pool() {
    return labels.get(Cluster.POOL_LABEL);
  }
}
