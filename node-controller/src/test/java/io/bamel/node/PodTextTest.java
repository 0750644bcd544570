package io.bamel.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.PodRef;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

  /** Where the annotation that blocks the drain is: on a pod or on the node itself. */
  enum On {
    POD,
    NODE
  }

  @ParameterizedTest(name = "{0} {1}: {2}")
  @CsvSource({
    "POD, bamel.io/do-not-disrupt, true",
    "POD, karpenter.sh/do-not-disrupt, true",
    "POD, cluster-autoscaler.kubernetes.io/safe-to-evict, false",
    "NODE, bamel.io/do-not-disrupt, true",
    "NODE, karpenter.sh/do-not-disrupt, true",
    "NODE, cluster-autoscaler.kubernetes.io/scale-down-disabled, true"
  })
  void aBlockerNamesItsAnnotation(On on, String annotation, String value) {
    Map<String, String> blocking = Map.of(annotation, value);
    List<KubePod> pods =
        on == On.POD
            ? List.of(pod("db", blocking), pod("web", Map.of()))
            : List.of(pod("web", Map.of()));
    String text = PodText.blockers(node(on == On.NODE ? blocking : Map.of(), pods), pods);
    if (on == On.POD) {
      assertThat(text)
          .contains("apps/db (annotated " + annotation)
          .contains(value)
          .contains("apps/web (not evicted yet)");
    } else {
      assertThat(text).startsWith("the node is annotated " + annotation).contains("apps/web");
    }
  }
}
