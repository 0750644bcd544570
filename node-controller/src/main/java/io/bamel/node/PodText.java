package io.bamel.node;

import io.bamel.inventory.cluster.KubePod;
import java.util.List;
import java.util.stream.Collectors;

/** How the state machine names the pods that keep a node from being drained. Pure. */
final class PodText {

  private PodText() {}

  /** Whether the Kubernetes node is annotated do-not-disrupt. */
  static boolean doNotDisrupt(KubeView kube) {
    return kube.node() != null && kube.node().doNotDisrupt();
  }

  /**
   * What keeps {@code workloads} on the node: the node's annotation, or each pod's reason; an
   * annotation is named as found ({@code bamel.io/do-not-disrupt: "true"}, {@code
   * karpenter.sh/do-not-disrupt: "true"}, {@code cluster-autoscaler.kubernetes.io/safe-to-evict:
   * "false"}, {@code cluster-autoscaler.kubernetes.io/scale-down-disabled: "true"}).
   */
  static String blockers(KubeView kube, List<KubePod> workloads) {
    if (doNotDisrupt(kube)) {
      return "the node is annotated "
          + kube.node().doNotDisruptAnnotation()
          + "; pods left: "
          + names(workloads);
    }
    return "blocking pods: "
        + workloads.stream()
            .map(
                p -> {
                  String reason =
                      p.doNotDisrupt()
                          ? "annotated " + p.doNotDisruptAnnotation()
                          : kube.blocked().getOrDefault(p.ref().toString(), "not evicted yet");
                  return p.ref() + " (" + reason + ")";
                })
            .sorted()
            .collect(Collectors.joining(", "));
  }

  /** The pods' {@code namespace/name}, sorted. */
  static String names(List<KubePod> pods) {
    return pods.stream().map(p -> p.ref().toString()).sorted().collect(Collectors.joining(", "));
  }
}
