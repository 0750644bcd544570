package io.bamel.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.NodeSpec;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The pure parts of reconciling: which Kubernetes node a node is ({@link NodeKube#kubeName}). */
class NodeReconcilerTest {

  static Stream<Arguments> kubeNames() {
    return Stream.of(
        // kubernetesNodeName, name, id -> the Kubernetes node looked up
        Arguments.of("k8s-a", "inventory-a", "n1", "k8s-a"),
        Arguments.of("k8s-a", null, "n1", "k8s-a"),
        Arguments.of(null, "inventory-a", "n1", "inventory-a"),
        Arguments.of("", "inventory-a", "n1", "inventory-a"),
        Arguments.of("  ", "inventory-a", "n1", "inventory-a"),
        Arguments.of(null, null, "n1", "n1"),
        Arguments.of(null, " ", "n1", "n1"),
        Arguments.of("", "", "n1", "n1"));
  }

  @ParameterizedTest(name = "kubernetesNodeName={0} name={1} id={2} -> {3}")
  @MethodSource("kubeNames")
  void theKubernetesNodeIsKubernetesNodeNameElseTheNameElseTheId(
      String kubernetesNodeName, String name, String id, String expected) {
    NodeSpec spec = NodeSpec.builder().name(name).kubernetesNodeName(kubernetesNodeName).build();
    assertThat(NodeKube.kubeName(id, spec)).isEqualTo(expected);
  }
}
