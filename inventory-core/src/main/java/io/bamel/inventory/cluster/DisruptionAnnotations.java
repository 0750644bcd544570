package io.bamel.inventory.cluster;

import java.util.List;
import java.util.Map;

/**
 * The annotations that forbid disrupting a pod or a node, bamel's own and those users already set
 * for Karpenter and the cluster-autoscaler, each where its project defines it:
 *
 * <table>
 *   <caption>Honoured annotations</caption>
 *   <tr><th>annotation</th><th>value</th><th>on</th></tr>
 *   <tr><td>{@code bamel.io/do-not-disrupt}</td><td>{@code "true"}</td><td>pod, node</td></tr>
 *   <tr><td>{@code karpenter.sh/do-not-disrupt}</td><td>{@code "true"}</td><td>pod, node</td></tr>
 *   <tr><td>{@code cluster-autoscaler.kubernetes.io/safe-to-evict}</td><td>{@code "false"}</td>
 *       <td>pod</td></tr>
 *   <tr><td>{@code cluster-autoscaler.kubernetes.io/scale-down-disabled}</td><td>{@code "true"}</td>
 *       <td>node</td></tr>
 * </table>
 *
 * <p>Values compare case-insensitively; any other value, or the annotation on the other kind of
 * object, does not count. Pure.
 */
public final class DisruptionAnnotations {

  /** Karpenter's annotation (pods and nodes). */
  public static final String KARPENTER_DO_NOT_DISRUPT = "karpenter.sh/do-not-disrupt";

  /** The cluster-autoscaler's pod annotation; {@code "false"} forbids evicting the pod. */
  public static final String CA_SAFE_TO_EVICT = "cluster-autoscaler.kubernetes.io/safe-to-evict";

  /** The cluster-autoscaler's node annotation; {@code "true"} forbids removing the node. */
  public static final String CA_SCALE_DOWN_DISABLED =
      "cluster-autoscaler.kubernetes.io/scale-down-disabled";

  private record Rule(String annotation, String value) {}

  private static final List<Rule> POD =
      List.of(
          new Rule(Cluster.DO_NOT_DISRUPT, "true"),
          new Rule(KARPENTER_DO_NOT_DISRUPT, "true"),
          new Rule(CA_SAFE_TO_EVICT, "false"));

  private static final List<Rule> NODE =
      List.of(
          new Rule(Cluster.DO_NOT_DISRUPT, "true"),
          new Rule(KARPENTER_DO_NOT_DISRUPT, "true"),
          new Rule(CA_SCALE_DOWN_DISABLED, "true"));

  private DisruptionAnnotations() {}

  /**
   * The first annotation of a pod's {@code annotations} that forbids disrupting it, as {@code name:
   * "value"}, or null.
   */
  public static String podBlocker(Map<String, String> annotations) {
    return first(POD, annotations);
  }

  /**
   * The first annotation of a node's {@code annotations} that forbids disrupting it, as {@code
   * name: "value"}, or null.
   */
  public static String nodeBlocker(Map<String, String> annotations) {
    return first(NODE, annotations);
  }

  private static String first(List<Rule> rules, Map<String, String> annotations) {
    if (annotations == null) {
      return null;
    }
    for (Rule r : rules) {
      String v = annotations.get(r.annotation());
      if (v != null && r.value().equalsIgnoreCase(v.trim())) {
        return r.annotation() + ": \"" + r.value() + "\"";
      }
    }
    return null;
  }
}
