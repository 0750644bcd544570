package io.bamel.inventory.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Which annotations forbid disrupting a pod or a node, as a table. */
class DisruptionAnnotationsTest {

  record Case(String name, Map<String, String> annotations, String pod, String node) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("none", Map.of(), null, null),
        new Case(
            "bamel on both",
            Map.of("bamel.io/do-not-disrupt", "true"),
            "bamel.io/do-not-disrupt: \"true\"",
            "bamel.io/do-not-disrupt: \"true\""),
        new Case("bamel false", Map.of("bamel.io/do-not-disrupt", "false"), null, null),
        new Case(
            "karpenter on both",
            Map.of("karpenter.sh/do-not-disrupt", "true"),
            "karpenter.sh/do-not-disrupt: \"true\"",
            "karpenter.sh/do-not-disrupt: \"true\""),
        new Case(
            "karpenter, any case",
            Map.of("karpenter.sh/do-not-disrupt", "True"),
            "karpenter.sh/do-not-disrupt: \"true\"",
            "karpenter.sh/do-not-disrupt: \"true\""),
        new Case(
            "safe-to-evict false: pods only",
            Map.of("cluster-autoscaler.kubernetes.io/safe-to-evict", "false"),
            "cluster-autoscaler.kubernetes.io/safe-to-evict: \"false\"",
            null),
        new Case(
            "safe-to-evict true does not block",
            Map.of("cluster-autoscaler.kubernetes.io/safe-to-evict", "true"),
            null,
            null),
        new Case(
            "scale-down-disabled: nodes only",
            Map.of("cluster-autoscaler.kubernetes.io/scale-down-disabled", "true"),
            null,
            "cluster-autoscaler.kubernetes.io/scale-down-disabled: \"true\""),
        new Case(
            "scale-down-disabled false does not block",
            Map.of("cluster-autoscaler.kubernetes.io/scale-down-disabled", "false"),
            null,
            null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void decides(Case c) {
    assertThat(DisruptionAnnotations.podBlocker(c.annotations())).isEqualTo(c.pod());
    assertThat(DisruptionAnnotations.nodeBlocker(c.annotations())).isEqualTo(c.node());
    KubePod pod =
        KubePod.builder()
            .ref(new PodRef("apps", "p"))
            .nodeName("n1")
            .phase("Running")
            .scheduled(true)
            .ownerKind("ReplicaSet")
            .annotations(c.annotations())
            .build();
    assertThat(pod.doNotDisrupt()).isEqualTo(c.pod() != null);
    KubeNode node = new KubeNode("n1", true, false, Map.of(), c.annotations(), Map.of());
    assertThat(node.doNotDisrupt()).isEqualTo(c.node() != null);
  }
}
