package io.bamel.pool;

import static io.bamel.pool.Inventory.kubeNode;
import static io.bamel.pool.Inventory.running;
import static io.bamel.pool.Inventory.unschedulable;
import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.cluster.DisconnectedCluster;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.PodRef;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** One cycle's view of the cluster. */
class ClusterViewTest {

  @Test
  void podsAreTotalledPerNodeAndFinishedOnesLeftOut() {
    KubePod done =
        new KubePod(
            new PodRef("default", "job"),
            "a",
            "Succeeded",
            Inventory.amounts("cpu", 30),
            true,
            null,
            "Job",
            Map.of(),
            Map.of(),
            Map.of(),
            Set.of(),
            List.of());
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
  void unchangedAllocatableIsReusedFromThePreviousView() {
    ClusterView first = ClusterView.of(List.of(kubeNode("a", true, "cpu", 32)), List.of());
    ClusterView same = ClusterView.of(List.of(kubeNode("a", true, "cpu", 32)), List.of(), first);
    ClusterView grown = ClusterView.of(List.of(kubeNode("a", true, "cpu", 64)), List.of(), same);
    assertThat(same.allocatableOf("a")).isSameAs(first.allocatableOf("a"));
    assertThat(grown.allocatableOf("a").get("cpu")).isEqualTo(64.0);
  }

  @Test
  void withoutKubernetesTheViewIsUnknown() {
    ClusterView view = ClusterView.read(DisconnectedCluster.INSTANCE);
    assertThat(view.known()).isFalse();
    assertThat(view.reason()).isEqualTo("no Kubernetes integration");
  }
}
