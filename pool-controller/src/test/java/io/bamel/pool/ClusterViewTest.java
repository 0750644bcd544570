package io.bamel.pool;

import static io.bamel.pool.Inventory.kubeNode;
import static io.bamel.pool.Inventory.running;
import static io.bamel.pool.Inventory.unschedulable;
import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.cluster.DisconnectedCluster;
import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.NodePods;
import io.bamel.inventory.cluster.PodRef;
import io.bamel.inventory.cluster.PodSummary;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** One cycle's view of the cluster. */
class ClusterViewTest {

  @Test
  void podsAreTotalledPerNodeAndFinishedOnesLeftOut() {
    KubePod done =
        KubePod.builder()
            .ref(new PodRef("default", "job"))
            .nodeName("a")
            .phase("Succeeded")
            .requests(Inventory.amounts("cpu", 30))
            .scheduled(true)
            .ownerKind("Job")
            .build();
    ClusterView view =
        ClusterView.of(
            List.of(kubeNode("a", true, "cpu", 32, "nvidia.com/gpu", 1)),
            List.of(
                running("x", "a", "cpu", 2, "nvidia.com/gpu", 1),
                running("y", "a", "cpu", "0.5"),
                done,
                unschedulable("p", Set.of("pool"), "cpu", 1)));
    assertThat(view.loadOn("a").requested().amounts()).isEqualTo(Map.of("cpu", 2.5, "gpu", 1.0));
    assertThat(view.loadOn("a").unevictable()).isFalse();
    assertThat(view.loadOn("nobody")).isEqualTo(ClusterView.NodeLoad.NONE);
    assertThat(view.allocatableOf("a").amounts()).isEqualTo(Map.of("cpu", 32.0, "gpu", 1.0));
    assertThat(view.unschedulable()).extracting(p -> p.ref().name()).containsExactly("p");
  }

  @Test
  void eachWorkloadPodsRequestsAreListedButNotDaemonSetOrMirrorPods() {
    KubePod daemon =
        KubePod.builder()
            .ref(new PodRef("kube-system", "agent"))
            .nodeName("a")
            .phase("Running")
            .requests(Inventory.amounts("cpu", 1))
            .scheduled(true)
            .ownerKind("DaemonSet")
            .build();
    KubePod mirror =
        KubePod.builder()
            .ref(new PodRef("kube-system", "static"))
            .nodeName("a")
            .phase("Running")
            .requests(Inventory.amounts("cpu", 1))
            .scheduled(true)
            .ownerKind("Node")
            .annotations(Map.of(io.bamel.inventory.cluster.Cluster.MIRROR_POD, "x"))
            .build();
    List<KubePod> pods =
        List.of(
            running("x", "a", "cpu", 2),
            running("y", "a", "cpu", 2),
            running("z", "a", "cpu", 4, "nvidia.com/gpu", 1),
            daemon,
            mirror);
    ClusterView view = ClusterView.of(List.of(kubeNode("a", true, "cpu", 32)), pods);
    ClusterView.NodeLoad load = view.loadOn("a");
    assertThat(load.requested().get("cpu")).isEqualTo(10.0);
    assertThat(load.pods())
        .extracting(Resources::amounts)
        .containsExactlyInAnyOrder(
            Map.of("cpu", 2.0), Map.of("cpu", 2.0), Map.of("cpu", 4.0, "gpu", 1.0));
    // A total kept up to date pod by pod lists the same pods as one computed afresh.
    NodePods kept = NodePods.NONE;
    for (KubePod p : pods) {
      kept = kept.plus(p);
    }
    kept = kept.minus(pods.get(0));
    assertThat(kept.workloads())
        .isEqualTo(PodSummary.of(pods.subList(1, 5)).byNode().get("a").workloads());
    assertThat(kept.workloads().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(2);
  }

  @Test
  void aTotalWithoutItsPodsLeavesThemUnknown() {
    NodePods total = new NodePods(Map.of("cpu", java.math.BigDecimal.TEN), 3, 0, 0);
    ClusterView view =
        ClusterView.of(
            List.of(kubeNode("a", true, "cpu", 32)),
            new PodSummary(Map.of("a", total), List.of()),
            null);
    assertThat(view.loadOn("a").requested().get("cpu")).isEqualTo(10.0);
    assertThat(view.loadOn("a").pods()).isNull();
  }

  @Test
  void unchangedAllocatableIsReusedFromThePreviousView() {
    ClusterView first = ClusterView.of(List.of(kubeNode("a", true, "cpu", 32)), List.of());
    ClusterView same = ClusterView.of(List.of(kubeNode("a", true, "cpu", 32)), List.of(), first);
    ClusterView grown = ClusterView.of(List.of(kubeNode("a", true, "cpu", 64)), List.of(), same);
    assertThat(same.allocatableOf("a")).isSameAs(first.allocatableOf("a"));
    assertThat(grown.allocatableOf("a").get("cpu")).isEqualTo(64.0);
  }

  @Test
  void aPodSummaryGivesTheSameViewAsThePodsItSums() {
    List<KubePod> pods =
        List.of(
            running("x", "a", "cpu", 2, "nvidia.com/gpu", 1),
            running("y", "a", "cpu", "0.5"),
            running("z", "gone", "cpu", 1),
            unschedulable("p", Set.of("pool"), "cpu", 1));
    List<KubeNode> nodes = List.of(kubeNode("a", true, "cpu", 32));
    ClusterView fromPods = ClusterView.of(nodes, pods);
    ClusterView fromSummary = ClusterView.of(nodes, PodSummary.of(pods), null);
    for (String name : List.of("a", "gone", "nobody")) {
      assertThat(fromSummary.loadOn(name)).isEqualTo(fromPods.loadOn(name));
    }
    assertThat(fromSummary.loadOn("gone").requested().amounts()).isEqualTo(Map.of("cpu", 1.0));
    assertThat(fromSummary.node("gone")).isNull();
    assertThat(fromSummary.unschedulable()).isEqualTo(fromPods.unschedulable());
  }

  @Test
  void anUnchangedPodTotalIsReusedFromThePreviousViewAndAChangedOneConverted() {
    List<KubeNode> nodes = List.of(kubeNode("a", true, "cpu", 32), kubeNode("b", true, "cpu", 32));
    NodePods onA = NodePods.NONE.plus(running("x", "a", "cpu", 2));
    NodePods onB = NodePods.NONE.plus(running("y", "b", "cpu", 1));
    ClusterView first =
        ClusterView.of(nodes, new PodSummary(Map.of("a", onA, "b", onB), List.of()), null);
    NodePods grownB = onB.plus(running("z", "b", "cpu", 3));
    ClusterView next =
        ClusterView.of(nodes, new PodSummary(Map.of("a", onA, "b", grownB), List.of()), first);
    assertThat(next.loadOn("a")).isSameAs(first.loadOn("a"));
    assertThat(next.loadOn("b").requested().amounts()).isEqualTo(Map.of("cpu", 4.0));
    ClusterView emptied = ClusterView.of(nodes, new PodSummary(Map.of("a", onA), List.of()), next);
    assertThat(emptied.loadOn("b")).isEqualTo(ClusterView.NodeLoad.NONE);
  }

  @Test
  void withoutKubernetesTheViewIsUnknown() {
    ClusterView view = ClusterView.read(DisconnectedCluster.INSTANCE);
    assertThat(view.known()).isFalse();
    assertThat(view.reason()).isEqualTo("no Kubernetes integration");
  }
}
