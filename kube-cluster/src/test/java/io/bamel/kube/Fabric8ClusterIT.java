package io.bamel.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.ClusterUnavailableException;
import io.bamel.inventory.cluster.EvictionResult;
import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.NodeRequirement;
import io.bamel.inventory.cluster.PodRef;
import io.bamel.kube.testing.KubeObjects;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link Fabric8Cluster} against the fabric8 mock API server in CRUD mode. */
class Fabric8ClusterIT extends Fabric8ClusterTests {

  /** Waits until the watched cache shows {@code n} pods. */
  void awaitPods(int n) {
    await().atMost(WAIT).untilAsserted(() -> assertThat(cluster.pods()).hasSize(n));
  }

  /** Waits until the watched cache shows {@code n} nodes. */
  void awaitNodes(int n) {
    await().atMost(WAIT).untilAsserted(() -> assertThat(cluster.nodes()).hasSize(n));
  }

  @Test
  void nodesAndPodsAreMappedToPlainRecords() {
    kube.nodes().resource(node("n1", true)).create();
    kube.nodes().resource(node("n2", false)).create();
    Pod daemon =
        pod("ds-1", "n1", "agent")
            .owner("DaemonSet", "agent", "u1")
            .annotations(Map.of(Cluster.DO_NOT_DISRUPT, "true"))
            .pool("gpu")
            .requiredPools(List.of("gpu", "gpu-large"))
            .scheduled()
            .build();
    kube.pods().resource(daemon).create();
    kube.pods().resource(pod("web-1", "n2", "web").build()).create();
    Pod pending = pod("web-2", null, "web").pending().build();
    kube.pods().resource(pending).create();
    awaitNodes(2);
    awaitPods(3);

    assertThat(cluster.nodes()).extracting(KubeNode::name).containsExactlyInAnyOrder("n1", "n2");
    KubeNode n1 = cluster.node("n1").orElseThrow();
    assertThat(n1.ready()).isTrue();
    assertThat(n1.unschedulable()).isFalse();
    assertThat(n1.labels()).containsEntry("zone", "a");
    assertThat(n1.annotations()).containsEntry("note", "x");
    assertThat(n1.allocatable().get("cpu")).isEqualByComparingTo(new BigDecimal(8));
    assertThat(n1.allocatable().get("memory"))
        .isEqualByComparingTo(new BigDecimal(32L * 1024 * 1024 * 1024));
    assertThat(cluster.node("n2").orElseThrow().ready()).isFalse();
    assertThat(cluster.node("nope")).isEmpty();

    assertThat(cluster.pods()).hasSize(3);
    KubePod ds = cluster.podsOn("n1").get(0);
    assertThat(cluster.podsOn("n1")).hasSize(1);
    assertThat(ds.ref()).isEqualTo(new PodRef("apps", "ds-1"));
    assertThat(ds.daemonSet()).isTrue();
    assertThat(ds.doNotDisrupt()).isTrue();
    assertThat(ds.workload()).isFalse();
    assertThat(ds.requiredPools()).isEqualTo(Set.of("gpu", "gpu-large"));
    assertThat(ds.requiredNodeTerms())
        .containsExactly(List.of(NodeRequirement.pool("In", "gpu", "gpu-large")));
    assertThat(ds.nodeSelector()).containsEntry(Cluster.POOL_LABEL, "gpu");
    assertThat(ds.requests().get("cpu")).isEqualByComparingTo(new BigDecimal("0.5"));
    assertThat(ds.scheduled()).isTrue();
    KubePod web2 =
        cluster.pods().stream().filter(p -> p.ref().name().equals("web-2")).findFirst().get();
    assertThat(web2.unschedulable()).isTrue();
    assertThat(web2.nodeName()).isNull();
    assertThat(web2.requiredNodeTerms()).as("no required affinity").isEmpty();
    assertThat(cluster.podsOn("n2")).extracting(p -> p.ref().name()).containsExactly("web-1");
    assertThat(cluster.podsOn("n2").get(0).workload()).isTrue();
  }

  @Test
  void requiredNodeAffinityTermsAreMappedInOrderWithEveryOperator() {
    Pod pending =
        new PodBuilder(pod("batch-0", null, "batch").build())
            .editSpec()
            .withNewAffinity()
            .withNewNodeAffinity()
            .withNewRequiredDuringSchedulingIgnoredDuringExecution()
            .addNewNodeSelectorTerm()
            .addNewMatchExpression()
            .withKey(Cluster.POOL_LABEL)
            .withOperator("In")
            .withValues("a", "b")
            .endMatchExpression()
            .addNewMatchExpression()
            .withKey(Cluster.POOL_LABEL)
            .withOperator("NotIn")
            .withValues("b")
            .endMatchExpression()
            .endNodeSelectorTerm()
            .addNewNodeSelectorTerm()
            .addNewMatchExpression()
            .withKey(Cluster.POOL_LABEL)
            .withOperator("Exists")
            .endMatchExpression()
            .addNewMatchExpression()
            .withKey("kubernetes.io/arch")
            .withOperator("In")
            .withValues("arm64")
            .endMatchExpression()
            .addNewMatchField()
            .withKey("metadata.name")
            .withOperator("NotIn")
            .withValues("n9")
            .endMatchField()
            .endNodeSelectorTerm()
            .endRequiredDuringSchedulingIgnoredDuringExecution()
            .endNodeAffinity()
            .endAffinity()
            .endSpec()
            .build();
    kube.pods().resource(pending).create();
    awaitPods(1);

    KubePod pod = cluster.pods().get(0);
    assertThat(pod.requiredNodeTerms())
        .containsExactly(
            List.of(NodeRequirement.pool("In", "a", "b"), NodeRequirement.pool("NotIn", "b")),
            List.of(
                NodeRequirement.pool("Exists"),
                new NodeRequirement("kubernetes.io/arch", "In", List.of("arm64")),
                new NodeRequirement("metadata.name", "NotIn", List.of("n9"))));
    assertThat(pod.requiredPools()).as("the In union only").isEqualTo(Set.of("a", "b"));
    assertThat(pod.nodeSelector()).isEmpty();
  }

  @Test
  void cordonUncordonAndLabelAreIdempotent() {
    kube.nodes().resource(node("n1", true)).create();
    awaitNodes(1);
    assertThat(cluster.cordon("n1")).isTrue();
    assertThat(cluster.cordon("n1")).isTrue();
    assertThat(kube.nodes().withName("n1").get().getSpec().getUnschedulable()).isTrue();
    await().atMost(WAIT).until(() -> cluster.node("n1").orElseThrow().unschedulable());
    assertThat(cluster.uncordon("n1")).isTrue();
    await().atMost(WAIT).until(() -> !cluster.node("n1").orElseThrow().unschedulable());

    assertThat(cluster.label("n1", Map.of(Cluster.POOL_LABEL, "batch"))).isTrue();
    assertThat(cluster.label("n1", Map.of(Cluster.POOL_LABEL, "batch"))).isTrue();
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(cluster.node("n1").orElseThrow().labels())
                    .containsEntry(Cluster.POOL_LABEL, "batch")
                    .containsEntry("zone", "a"));
    assertThat(cluster.node("n1").orElseThrow().pool()).isEqualTo("batch");

    assertThat(cluster.cordon("ghost")).isFalse();
    assertThat(cluster.label("ghost", Map.of("a", "b"))).isFalse();
  }

  @Test
  void evictionRespectsDisruptionBudgets() {
    kube.nodes().resource(node("n1", true)).create();
    kube.pods().resource(pod("db-0", "n1", "db").build()).create();
    kube.pods().resource(pod("web-0", "n1", "web").build()).create();
    kube.resource(KubeObjects.disruptionBudget("db-budget", Map.of("app", "db"), 1)).create();
    awaitPods(2);

    EvictionResult blocked = cluster.evict(new PodRef("apps", "db-0"));
    assertThat(blocked.outcome()).isEqualTo(EvictionResult.Status.BLOCKED_BY_BUDGET);
    assertThat(blocked.done()).isFalse();

    EvictionResult evicted = cluster.evict(new PodRef("apps", "web-0"));
    assertThat(evicted.outcome()).isEqualTo(EvictionResult.Status.EVICTED);
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(cluster.podsOn("n1"))
                    .extracting(p -> p.ref().name())
                    .containsExactly("db-0"));

    assertThat(cluster.evict(new PodRef("apps", "web-0")).outcome())
        .isEqualTo(EvictionResult.Status.GONE);
    assertThat(api.refusedEvictions()).isEqualTo(1);
  }

  @Test
  void evictionsArePolicyV1() {
    kube.nodes().resource(node("n1", true)).create();
    kube.pods().resource(pod("web-0", "n1", "web").build()).create();

    assertThat(cluster.evict(new PodRef("apps", "web-0")).outcome())
        .isEqualTo(EvictionResult.Status.EVICTED);

    assertThat(api.evictionBodies()).hasSize(1);
    Map<?, ?> body =
        new io.fabric8.kubernetes.client.utils.KubernetesSerialization()
            .unmarshal(api.evictionBodies().get(0), Map.class);
    assertThat(body.get("apiVersion")).isEqualTo("policy/v1");
    assertThat(body.get("kind")).isEqualTo("Eviction");
    Map<?, ?> metadata = (Map<?, ?>) body.get("metadata");
    assertThat(metadata.get("name")).isEqualTo("web-0");
    assertThat(metadata.get("namespace")).isEqualTo("apps");
  }

  @Test
  void anUnreachableApiServerIsReportedAsSuch() {
    kube.nodes().resource(node("n1", true)).create();
    awaitNodes(1);
    assertThat(cluster.reachable()).isTrue();
    api.unreachable(true);
    assertThat(cluster.reachable()).isFalse();
    assertThatThrownBy(() -> cluster.node("n1")).isInstanceOf(ClusterUnavailableException.class);
    assertThatThrownBy(() -> cluster.cordon("n1")).isInstanceOf(ClusterUnavailableException.class);
    assertThatThrownBy(() -> cluster.evict(new PodRef("apps", "x")))
        .isInstanceOf(ClusterUnavailableException.class);
    api.unreachable(false);
    await()
        .atMost(WAIT)
        .ignoreExceptions()
        .untilAsserted(() -> assertThat(cluster.node("n1")).isPresent());
  }

  @Test
  void aRefusedConnectionIsUnavailableNotAbsent() throws Exception {
    int port;
    try (java.net.ServerSocket socket =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    try (Fabric8Cluster nowhere =
        new Fabric8Cluster(
            new io.fabric8.kubernetes.client.KubernetesClientBuilder()
                .withConfig(
                    new io.fabric8.kubernetes.client.ConfigBuilder(
                            io.fabric8.kubernetes.client.Config.empty())
                        .withMasterUrl("http://127.0.0.1:" + port)
                        .withRequestRetryBackoffLimit(0)
                        .withRequestTimeout(2_000)
                        .withConnectionTimeout(2_000)
                        .build())
                .build())) {
      assertThat(nowhere.reachable()).isFalse();
      assertThatThrownBy(() -> nowhere.node("n1")).isInstanceOf(ClusterUnavailableException.class);
      assertThatThrownBy(() -> nowhere.podsOn("n1"))
          .isInstanceOf(ClusterUnavailableException.class);
    }
  }
}
