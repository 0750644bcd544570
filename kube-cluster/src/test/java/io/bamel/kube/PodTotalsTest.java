package io.bamel.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.NodePods;
import io.bamel.inventory.cluster.PodSummary;
import io.bamel.kube.testing.KubeObjects;
import io.bamel.kube.testing.KubeObjects.PodDraft;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The pod totals kept change by change in the pod informer's store, against the summary computed
 * afresh from the same store ({@link PodSummary#of}), through the calls fabric8's informer makes: a
 * put per added or modified pod, a remove per deleted one, and for a relist a put of every listed
 * pod then a remove of every key the list no longer has ({@code ProcessorStore.update} then {@code
 * retainAll} in fabric8 7.4).
 */
class PodTotalsTest {

  PodTotals totals;
  MappedStore<Pod, KubePod> store;

  @BeforeEach
  void store() {
    totals = new PodTotals();
    store = new MappedStore<>(Slim::pod, Fabric8Mapping::pod, KubePod::nodeName, totals);
  }

  /** A ReplicaSet's pod as the informer's store holds it; unbound ones are unschedulable. */
  static Pod pod(String name, String node, String phase, String cpu) {
    PodDraft pod =
        KubeObjects.pod(name)
            .resourceVersion("1")
            .owner("ReplicaSet", "rs", "u")
            .onNode(node)
            .container("c", null)
            .requests("cpu", cpu, "memory", "1Gi")
            .phase(phase);
    return node == null ? pod.unschedulable().build() : pod.build();
  }

  private void put(Pod p) {
    store.put(store.getKey(p), p);
  }

  private void remove(String name) {
    store.remove("apps/" + name);
  }

  /** What the store's pods sum to, computed afresh. */
  private PodSummary afresh() {
    return PodSummary.of(store.records());
  }

  private void assertExact() {
    PodSummary kept = totals.summary();
    PodSummary fresh = afresh();
    assertThat(kept.byNode()).isEqualTo(fresh.byNode());
    assertThat(kept.unschedulable()).containsExactlyInAnyOrderElementsOf(fresh.unschedulable());
  }

  private BigDecimal cpuOn(String node) {
    return totals.summary().byNode().getOrDefault(node, NodePods.NONE).requests().get("cpu");
  }

  @Test
  void aPodMovesFromPendingToBoundThenIsDeleted() {
    put(pod("web", null, "Pending", "2"));
    assertThat(totals.summary().unschedulable()).extracting(p -> p.ref().name()).contains("web");
    assertThat(totals.summary().byNode()).isEmpty();

    put(pod("web", "n1", "Running", "2"));
    assertThat(totals.summary().unschedulable()).isEmpty();
    assertThat(cpuOn("n1")).isEqualByComparingTo("2");
    assertThat(totals.summary().byNode().get("n1").pods()).isEqualTo(1);
    assertExact();

    remove("web");
    assertThat(totals.summary().byNode()).isEmpty();
    assertThat(totals.summary().unschedulable()).isEmpty();
  }

  @Test
  void aFinishedPodLeavesItsNodesTotal() {
    put(pod("a", "n1", "Running", "1.5"));
    put(pod("b", "n1", "Running", "500m"));
    assertThat(cpuOn("n1")).isEqualTo(new BigDecimal("2"));
    put(pod("b", "n1", "Succeeded", "500m"));
    assertThat(cpuOn("n1")).isEqualTo(new BigDecimal("1.5"));
    remove("b"); // a finished pod's deletion changes nothing
    assertThat(cpuOn("n1")).isEqualTo(new BigDecimal("1.5"));
    assertExact();
  }

  @Test
  void initContainersAndOverheadCountByTheSchedulersRule() {
    Pod p =
        new PodBuilder(pod("batch", "n1", "Running", "1"))
            .editSpec()
            .addToInitContainers(Fabric8MappingTest.c("4", null))
            .addToOverhead("cpu", new Quantity("250m"))
            .endSpec()
            .build();
    put(p);
    assertThat(cpuOn("n1")).isEqualByComparingTo("4.25");
    remove("batch");
    assertThat(totals.summary().byNode()).isEmpty();
  }

  @Test
  void doNotDisruptAndUnevictablePodsAreCounted() {
    Pod marked =
        new PodBuilder(pod("keep", "n1", "Running", "1"))
            .editMetadata()
            .addToAnnotations("bamel.io/do-not-disrupt", "true")
            .endMetadata()
            .build();
    Pod bare =
        new PodBuilder(pod("bare", "n1", "Running", "1"))
            .editMetadata()
            .withOwnerReferences(List.of())
            .endMetadata()
            .build();
    put(marked);
    put(bare);
    NodePods n1 = totals.summary().byNode().get("n1");
    assertThat(n1.doNotDisrupt()).isEqualTo(1);
    assertThat(n1.unevictable()).isEqualTo(1);
    remove("keep");
    assertThat(totals.summary().byNode().get("n1").doNotDisrupt()).isZero();
    assertExact();
  }

  @Test
  void aRelistLeavesTheTotalsExact() {
    put(pod("a", "n1", "Running", "1"));
    put(pod("b", "n1", "Running", "2"));
    put(pod("c", "n2", "Running", "3"));
    put(pod("d", null, "Pending", "1"));
    // the watch ended with 410 Gone; meanwhile b grew, c was deleted, d was bound, e appeared
    List<Pod> listed =
        List.of(
            pod("a", "n1", "Running", "1"),
            pod("b", "n1", "Running", "2.5"),
            pod("d", "n2", "Running", "1"),
            pod("e", null, "Pending", "4"));
    relist(listed);
    assertThat(cpuOn("n1")).isEqualByComparingTo("3.5");
    assertThat(cpuOn("n2")).isEqualByComparingTo("1");
    assertThat(totals.summary().unschedulable()).extracting(p -> p.ref().name()).contains("e");
    assertExact();
  }

  /** As fabric8 7.4's informer relists into a custom store: put every listed, remove the rest. */
  private void relist(List<Pod> listed) {
    Set<String> keys = new HashSet<>();
    for (Pod p : listed) {
      keys.add(store.getKey(p));
      put(p);
    }
    for (String key : store.keySet().collect(Collectors.toList())) {
      if (!keys.contains(key)) {
        store.remove(key);
      }
    }
  }

  @Test
  void anyRunOfChangesAndRelistsMatchesTheSummaryComputedAfresh() {
    Random random = new Random(17);
    String[] nodes = {null, "n1", "n2", "n3"};
    String[] phases = {"Pending", "Running", "Running", "Succeeded", "Failed"};
    String[] cpus = {"100m", "250m", "1", "1.5", "3"};
    for (int step = 0; step < 300; step++) {
      String name = "p" + random.nextInt(30);
      int what = random.nextInt(20);
      if (what < 12) {
        String node = nodes[random.nextInt(nodes.length)];
        put(pod(name, node, phases[random.nextInt(phases.length)], cpus[random.nextInt(5)]));
      } else if (what < 19) {
        remove(name);
      } else {
        List<Pod> listed = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
          if (random.nextBoolean()) {
            listed.add(pod("p" + i, nodes[random.nextInt(nodes.length)], "Running", "1"));
          }
        }
        relist(listed);
      }
      assertExact();
    }
  }
}
