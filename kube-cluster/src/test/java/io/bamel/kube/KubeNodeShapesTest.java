package io.bamel.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.cluster.KubeNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Nodes as the API server serves them ({@code kubectl get node -o json}: Node v1 of the Kubernetes
 * API reference, with the kubelet's conditions and nodeInfo, and the node lifecycle controller's
 * {@code Unknown}/{@code NodeStatusUnknown} conditions and unreachable taints for a node whose
 * kubelet stopped posting), mapped to bamel's {@link KubeNode}. Each fixture is first checked
 * against fabric8's model, which is generated from Kubernetes' published OpenAPI: a field name
 * Kubernetes does not have would land in the model's additional properties and fail.
 */
class KubeNodeShapesTest {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private static Node fixture(String name) throws Exception {
    try (InputStream in = KubeNodeShapesTest.class.getResourceAsStream("/kube/" + name)) {
      assertThat(in).as(name).isNotNull();
      Node node = JSON.unmarshal(in, Node.class);
      assertThat(unknownFields(node, "node"))
          .as("fields of %s that Kubernetes' Node v1 does not have", name)
          .isEmpty();
      return node;
    }
  }

  @Test
  void aReadyNodeIsReadyAndSchedulableWithItsAllocatable() throws Exception {
    KubeNode node = Fabric8Mapping.node(fixture("node-ready.json"));
    assertThat(node.name()).isEqualTo("r1-u07");
    assertThat(node.ready()).isTrue();
    assertThat(node.unschedulable()).isFalse();
    assertThat(node.labels()).containsEntry("bamel.io/pool", "general");
    assertThat(node.allocatable().get("cpu")).isEqualByComparingTo(new BigDecimal("63.5"));
    assertThat(node.allocatable().get("memory"))
        .isEqualByComparingTo(BigDecimal.valueOf(527_332_504L * 1024));
  }

  @Test
  void aNodeWhoseKubeletStoppedPostingIsNotReadyAndACordonedOneUnschedulable() throws Exception {
    Node served = fixture("node-unreachable-cordoned.json");
    assertThat(served.getStatus().getConditions())
        .filteredOn(c -> c.getType().equals("Ready"))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.getStatus()).isEqualTo("Unknown");
              assertThat(c.getReason()).isEqualTo("NodeStatusUnknown");
            });
    KubeNode node = Fabric8Mapping.node(served);
    assertThat(node.ready()).as("Ready=Unknown is not ready").isFalse();
    assertThat(node.unschedulable()).isTrue();
  }

  @Test
  void aFieldKubernetesDoesNotHaveIsCaught() throws Exception {
    Node invented =
        JSON.unmarshal(
            "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"},"
                + "\"status\":{\"nodeinfo\":{},\"conditions\":[{\"type\":\"Ready\","
                + "\"state\":\"True\"}]}}",
            Node.class);
    assertThat(unknownFields(invented, "node"))
        .containsExactlyInAnyOrder("node.Status.nodeinfo", "node.Status.Conditions[0].state");
  }

  /** Paths of fields the model keeps as additional properties (names it does not know). */
  static List<String> unknownFields(Object value, String at) throws Exception {
    List<String> out = new ArrayList<>();
    if (value == null) {
      return out;
    }
    if (value instanceof Collection<?> items) {
      int i = 0;
      for (Object item : items) {
        out.addAll(unknownFields(item, at + "[" + i++ + "]"));
      }
      return out;
    }
    if (!value.getClass().getPackageName().startsWith("io.fabric8.kubernetes.api.model")) {
      return out;
    }
    for (Method m : value.getClass().getMethods()) {
      if (m.getParameterCount() != 0 || !m.getName().startsWith("get")) {
        continue;
      }
      if (m.getName().equals("getAdditionalProperties")) {
        Map<?, ?> extra = (Map<?, ?>) m.invoke(value);
        if (extra != null) {
          extra.keySet().forEach(k -> out.add(at + "." + k));
        }
      } else if (!m.getName().equals("getClass")) {
        out.addAll(unknownFields(m.invoke(value), at + "." + m.getName().substring(3)));
      }
    }
    return out;
  }
}
