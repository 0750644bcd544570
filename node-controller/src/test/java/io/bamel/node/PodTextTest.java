package io.bamel.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.PodRef;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The words a drain uses for what blocks it name the annotation that was found. */
class PodTextTest {

  static KubePod pod(String name, Map<String, String> annotations) {
    return KubePod.builder()
        .ref(new PodRef("apps", name))
        .nodeName("n1")
        .phase("Running")
        .scheduled(true)
        .ownerKind("ReplicaSet")
        .annotations(annotations)
        .build();
  }

  static KubeView node(Map<String, String> annotations, List<KubePod> pods) {
    return KubeView.present(
        new KubeNode("n1", true, true, Map.of(), annotations, Map.of()), pods, Map.of());
  }

  static Stream<Arguments> podAnnotations() {
    return Stream.of(
        Arguments.of("bamel.io/do-not-disrupt", "true"),
        Arguments.of("karpenter.sh/do-not-disrupt", "true"),
        Arguments.of("cluster-autoscaler.kubernetes.io/safe-to-evict", "false"));
  }

  @ParameterizedTest(name = "pod {0}: {1}")
  @MethodSource("podAnnotations")
  void aBlockingPodNamesItsAnnotation(String annotation, String value) {
    List<KubePod> pods = List.of(pod("db", Map.of(annotation, value)), pod("web", Map.of()));
    String text = PodText.blockers(node(Map.of(), pods), pods);
    assertThat(text)
        .contains("apps/db (annotated " + annotation)
        .contains(value)
        .contains("apps/web (not evicted yet)");
  }

  static Stream<Arguments> nodeAnnotations() {
    return Stream.of(
        Arguments.of("bamel.io/do-not-disrupt", "true"),
        Arguments.of("karpenter.sh/do-not-disrupt", "true"),
        Arguments.of("cluster-autoscaler.kubernetes.io/scale-down-disabled", "true"));
  }

  @ParameterizedTest(name = "node {0}: {1}")
  @MethodSource("nodeAnnotations")
  void aBlockingNodeNamesItsAnnotation(String annotation, String value) {
    List<KubePod> pods = List.of(pod("web", Map.of()));
    String text = PodText.blockers(node(Map.of(annotation, value), pods), pods);
    assertThat(text).startsWith("the node is annotated " + annotation).contains("apps/web");
  }
}
