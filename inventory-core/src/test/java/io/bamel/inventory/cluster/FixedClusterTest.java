package io.bamel.inventory.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a {@link FixedCluster} answers: its lists, no writes, and evictions reported gone. */
class FixedClusterTest {

  static final KubeNode N1 = node("n1");
  static final KubeNode N2 = node("n2");
  static final KubePod ON_N1 = pod("a", "n1");
  static final KubePod PENDING = pod("b", null);

  /** The smallest subclass: what benchmarks and tests extend. */
  static final class InMemory extends FixedCluster {
    InMemory(List<KubeNode> nodes, List<KubePod> pods) {
      super(true, nodes, pods, "in memory");
    }

    void pods(List<KubePod> pods) {
      replacePods(pods);
    }
  }

  @Test
  void readsAnswerFromTheListsGiven() {
    InMemory cluster = new InMemory(List.of(N1, N2), List.of(ON_N1, PENDING));

    assertThat(cluster.enabled()).isTrue();
    assertThat(cluster.reachable()).isTrue();
    assertThat(cluster.synced()).isTrue();
    assertThat(cluster.nodes()).containsExactly(N1, N2);
    assertThat(cluster.node("n2")).contains(N2);
    assertThat(cluster.node("n3")).isEmpty();
    assertThat(cluster.pods()).containsExactly(ON_N1, PENDING);
    assertThat(cluster.podsOn("n1")).containsExactly(ON_N1);
    assertThat(cluster.podsOn("n2")).isEmpty();
    assertThat(cluster.podSummary().unschedulable()).containsExactly(PENDING);
  }

  @Test
  void theListsAreCopiesAndThePodsAreReplacedAsAWhole() {
    List<KubePod> pods = new ArrayList<>(List.of(ON_N1));
    InMemory cluster = new InMemory(List.of(N1), pods);
    pods.add(PENDING);

    assertThat(cluster.pods()).containsExactly(ON_N1);

    cluster.pods(pods);
    pods.clear();

    assertThat(cluster.pods()).containsExactly(ON_N1, PENDING);
    assertThat(cluster.nodes()).containsExactly(N1);
  }

  @Test
  void writesChangeNothingAndAnEvictionReportsThePodGone() {
    InMemory cluster = new InMemory(List.of(N1), List.of(ON_N1));

    assertThat(cluster.cordon("n1")).isFalse();
    assertThat(cluster.uncordon("n1")).isFalse();
    assertThat(cluster.label("n1", Map.of(Cluster.POOL_LABEL, "batch"))).isFalse();
    assertThat(cluster.evict(ON_N1.ref()))
        .isEqualTo(new EvictionResult(ON_N1.ref(), EvictionResult.Status.GONE, "in memory"));
    assertThat(cluster.nodes()).containsExactly(N1);
    assertThat(cluster.node("n1").orElseThrow().unschedulable()).isFalse();
    assertThat(cluster.pods()).containsExactly(ON_N1);
  }

  @Test
  void theDisconnectedClusterIsDisabledUnreachableAndEmpty() {
    Cluster none = DisconnectedCluster.INSTANCE;

    assertThat(none.enabled()).isFalse();
    assertThat(none.reachable()).isFalse();
    assertThat(none.synced()).isFalse();
    assertThat(none.nodes()).isEmpty();
    assertThat(none.node("n1")).isEmpty();
    assertThat(none.pods()).isEmpty();
    assertThat(none.podsOn("n1")).isEmpty();
    assertThat(none.cordon("n1")).isFalse();
    assertThat(none.evict(ON_N1.ref()))
        .isEqualTo(
            new EvictionResult(
                ON_N1.ref(), EvictionResult.Status.GONE, "no Kubernetes integration"));
  }

  static KubeNode node(String name) {
    return new KubeNode(name, true, false, Map.of(), Map.of(), Map.of());
  }

  static KubePod pod(String name, String nodeName) {
    return KubePod.builder()
        .ref(new PodRef("apps", name))
        .nodeName(nodeName)
        .phase(nodeName == null ? "Pending" : "Running")
        .scheduled(nodeName != null)
        .scheduledReason(nodeName == null ? "Unschedulable" : null)
        .ownerKind("ReplicaSet")
        .build();
  }
}
