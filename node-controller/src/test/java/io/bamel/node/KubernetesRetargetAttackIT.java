package io.bamel.node;

import static io.bamel.inventory.model.NodeState.OFF;
import static io.bamel.inventory.model.NodeState.READY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeCondition;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.store.BatchItem;
import io.bamel.kube.testing.KubeObjects;
import io.bamel.power.BmcPowerState;
import io.fabric8.kubernetes.api.model.Node;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Security issue 30, finding 1: an inventory writer retargets a node's {@code kubernetesNodeName}
 * at a Kubernetes node bamel does not own ({@code cp-1}, running workloads), then moves its power.
 * Real etcd, the simulated Redfish fleet (whose inspection reports each machine's system UUID), the
 * fabric8 mock API server with fake kubelets reporting the same UUIDs. {@code cp-1} is another
 * machine: its kubelet reports another UUID (or none). bamel must leave {@code cp-1} alone and
 * record the refusal (condition, event, metric).
 */
class KubernetesRetargetAttackIT extends TestSiteTests {

  static final String CONDITION = "KubernetesIdentityRefused";
  static final String REFUSALS = "bamel_kubernetes_identity_refusals_total";

  @Test
  void attack_writeTokenRetargetsKubernetesNodeThenPowersOff_cp1IsNotDrained() throws Exception {
    openKubernetesSite();
    String m1 = site.addNodes(1, "batch", DesiredPower.ON).get(0);
    ControllerInstance c = site.controller("a");
    site.awaitState(List.of(m1), READY, WAIT);
    controlPlane("cp-1", "4c4c4544-0042-3510-8053-b4c04f4e3232", false);

    site.update(m1, s -> s.toBuilder().kubernetesNodeName("cp-1").build());
    site.desire(m1, DesiredPower.OFF);

    await().atMost(WAIT).until(() -> refused(m1, "Mismatch") || !untouched("cp-1"));
    assertThat(untouched("cp-1")).as("cp-1 not cordoned, labelled or drained").isTrue();
    // several reconciliations later, still nothing done to cp-1
    await()
        .during(Duration.ofSeconds(3))
        .atMost(Duration.ofSeconds(10))
        .until(() -> untouched("cp-1"));
    assertThat(site.api.evictions()).as("no eviction sent").isZero();
    assertThat(site.kube.pods().inNamespace("apps").list().getItems()).hasSize(2);
    // nor is the machine switched off without its own pods being looked at
    assertThat(site.fleet.system(m1).powerState()).isEqualTo(BmcPowerState.ON);
    assertThat(site.state(m1)).isEqualTo(READY);
    assertThat(condition(m1).message()).contains("cp-1").contains("systemUUID");
    assertThat(site.events(m1)).anyMatch(e -> CONDITION.equals(e.reason()));
    assertThat(c.metric(REFUSALS, "reason", "mismatch")).isEqualTo(1);

    // the inventory corrected, the node is proven again and its own power-off proceeds
    site.update(m1, s -> s.toBuilder().kubernetesNodeName(null).build());
    site.awaitState(List.of(m1), OFF, WAIT);
    assertThat(condition(m1).status()).isEqualTo("False");
    assertThat(untouched("cp-1")).isTrue();
  }

  @Test
  void attack_writeTokenRetargetsKubernetesNodeThenPowersOn_cp1StaysCordoned() throws Exception {
    openKubernetesSite();
    site.inventory.putPoolConfig(
        "batch",
        PoolConfig.builder().labels(Map.of("bamel.io/tier", "batch")).build(),
        BatchItem.ANY);
    String m1 = site.addNodes(1, "batch", DesiredPower.OFF).get(0);
    ControllerInstance c = site.controller("a");
    site.awaitState(List.of(m1), OFF, WAIT);
    // an operator cordoned cp-1; its kubelet reports no identity at all
    controlPlane("cp-1", null, true);

    site.update(m1, s -> s.toBuilder().kubernetesNodeName("cp-1").build());
    site.desire(m1, DesiredPower.ON);

    await().atMost(WAIT).until(() -> refused(m1, "Unknown") || !stillCordoned("cp-1"));
    assertThat(stillCordoned("cp-1")).as("cp-1 still cordoned, not labelled").isTrue();
    await()
        .during(Duration.ofSeconds(3))
        .atMost(Duration.ofSeconds(10))
        .until(() -> stillCordoned("cp-1"));
    assertThat(site.state(m1)).isNotEqualTo(READY);
    assertThat(c.metric(REFUSALS, "reason", "unknown")).isEqualTo(1);
  }

  /** Registers Kubernetes node {@code name}, not a bamel machine, with two workload pods. */
  private void controlPlane(String name, String systemUuid, boolean cordoned) {
    site.kube
        .nodes()
        .resource(
            KubeObjects.node(name)
                .labels(Map.of("node-role.kubernetes.io/control-plane", ""))
                .unschedulable(cordoned)
                .systemUuid(systemUuid)
                .build())
        .create();
    for (String pod : List.of("db-0", "api-0")) {
      site.kube
          .pods()
          .resource(
              KubeObjects.pod(pod)
                  .owner("StatefulSet", pod.substring(0, pod.indexOf('-')), "u-" + pod)
                  .onNode(name)
                  .build())
          .create();
    }
  }

  /** Whether Kubernetes node {@code name} is not cordoned, unlabelled by bamel, pods in place. */
  private boolean untouched(String name) {
    Node node = site.kube.nodes().withName(name).get();
    boolean cordoned = Boolean.TRUE.equals(node.getSpec().getUnschedulable());
    boolean labelled = node.getMetadata().getLabels().containsKey(Cluster.POOL_LABEL);
    return !cordoned
        && !labelled
        && site.kube.pods().inNamespace("apps").list().getItems().size() == 2;
  }

  /** Whether Kubernetes node {@code name} is cordoned and carries none of the pool's labels. */
  private boolean stillCordoned(String name) {
    Node node = site.kube.nodes().withName(name).get();
    return Boolean.TRUE.equals(node.getSpec().getUnschedulable())
        && !node.getMetadata().getLabels().containsKey(Cluster.POOL_LABEL)
        && !node.getMetadata().getLabels().containsKey("bamel.io/tier");
  }

  private NodeCondition condition(String id) {
    NodeStatus status = site.node(id).status();
    return status.conditions() == null
        ? null
        : status.conditions().stream()
            .filter(c -> CONDITION.equals(c.type()))
            .findFirst()
            .orElse(null);
  }

  private boolean refused(String id, String reason) {
    NodeCondition c = condition(id);
    return c != null && c.isTrue() && reason.equals(c.reason());
  }
}
