package io.bamel.pool;

import static io.bamel.pool.Inventory.kubeNode;
import static io.bamel.pool.Inventory.node;
import static io.bamel.pool.Inventory.running;
import static io.bamel.pool.Inventory.unschedulable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.PodRef;
import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PowerInterface;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Snapshots from inventory nodes and a cluster view. */
class SnapshotBuilderTest {

  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
  private static final PoolConfig CONFIG = PoolConfig.builder().build();
  private static final double GI = 1024.0 * 1024 * 1024;

  private static PoolSnapshot build(
      String pool, PoolConfig config, List<Node> members, ClusterView view) {
    return SnapshotBuilder.build(
        config, members, view, Votes.NONE, PoolMemory.NONE, n -> true, NOW);
  }

  private static Member member(PoolSnapshot s, String id) {
    return s.members().stream().filter(m -> m.id().equals(id)).findFirst().orElseThrow();
  }

  @Test
  void utilizationIsRequestsOverAllocatableOfReadyNodes() {
    List<Node> members =
        List.of(
            node("a", "p", NodeState.READY, DesiredPower.ON),
            node("b", "p", NodeState.READY, DesiredPower.ON),
            node("c", "p", NodeState.OFF, DesiredPower.OFF));
    ClusterView view =
        ClusterView.of(
            List.of(
                kubeNode("a", true, "cpu", 10, "memory", 100),
                kubeNode("b", true, "cpu", 10, "memory", 100),
                kubeNode("c", false, "cpu", 10, "memory", 100)),
            List.of(
                running("x", "a", "cpu", 4, "memory", 10),
                running("y", "b", "cpu", "1.5", "memory", 30),
                running("ghost", "c", "cpu", 8)));
    PoolSnapshot s = build("p", CONFIG, members, view);
    assertThat(s.utilization().known()).isTrue();
    assertThat(s.utilization().ratio("cpu")).isCloseTo(5.5 / 20, within(1e-9));
    assertThat(s.utilization().ratio("memory")).isCloseTo(40.0 / 200, within(1e-9));
    assertThat(member(s, "a").requested().get("cpu")).isEqualTo(4.0);
    assertThat(member(s, "a").capacity().get("cpu")).isEqualTo(10.0);
  }

  @Test
  void aReadyNodeWhoseKubernetesNodeIsNotReadyIsLeftOutOfUtilization() {
    List<Node> members =
        List.of(
            node("a", "p", NodeState.READY, DesiredPower.ON),
            node("b", "p", NodeState.READY, DesiredPower.ON));
    ClusterView view =
        ClusterView.of(
            List.of(kubeNode("a", true, "cpu", 10), kubeNode("b", false, "cpu", 10)),
            List.of(running("x", "a", "cpu", 5), running("y", "b", "cpu", 10)));
    PoolSnapshot s = build("p", CONFIG, members, view);
    assertThat(s.utilization().ratio("cpu")).isEqualTo(0.5);
  }

  @Test
  void capacityIsAllocatableElseTheInventorys() {
    List<Node> members =
        List.of(
            node("k", "p", NodeState.OFF, DesiredPower.OFF),
            node("i", "p", NodeState.OFF, DesiredPower.OFF));
    ClusterView view =
        ClusterView.of(List.of(kubeNode("k", false, "cpu", 30, "nvidia.com/gpu", 2)), List.of());
    PoolSnapshot s = build("p", CONFIG, members, view);
    assertThat(member(s, "k").capacity().amounts())
        .containsEntry("cpu", 30.0)
        .containsEntry("gpu", 2.0);
    assertThat(member(s, "i").capacity().get("cpu")).isEqualTo(32.0);
    assertThat(member(s, "i").capacity().get("memory")).isEqualTo(128 * GI);
  }

  @Test
  void pendingPodsCountTheirRequestsInTheConsideredResourcesAndGpu() {
    List<KubePod> pods =
        List.of(
            unschedulable("mine", Set.of("gpu"), "cpu", 2, "nvidia.com/gpu", 1, "pods", 1),
            unschedulable("big", Set.of("gpu"), "cpu", 1, "memory", 4096, "example.com/fpga", 1));
    assertThat(build("gpu", CONFIG, List.of(), ClusterView.unknown("none")).pending()).isEmpty();
    List<PendingPod> pending = SnapshotBuilder.pending(pods, CONFIG);
    assertThat(pending).extracting(PendingPod::name).containsExactly("default/mine", "default/big");
    assertThat(pending.get(0).requests().amounts()).isEqualTo(Map.of("cpu", 2.0, "gpu", 1.0));
    assertThat(pending.get(1).requests().amounts()).isEqualTo(Map.of("cpu", 1.0, "memory", 4096.0));
    assertThat(
            SnapshotBuilder.pending(
                    pods,
                    PoolConfig.builder().resources(List.of("cpu", "example.com/fpga")).build())
                .get(1)
                .requests()
                .amounts())
        .isEqualTo(Map.of("cpu", 1.0, "example.com/fpga", 1.0));
  }

  @Test
  void podsThatAreScheduledOrWaitingForAnotherReasonAreNotPending() {
    KubePod gated =
        KubePod.builder()
            .ref(new PodRef("default", "gated"))
            .phase("Pending")
            .scheduled(false)
            .scheduledReason("SchedulingGated")
            .ownerKind("ReplicaSet")
            .requiredPools(Set.of("p"))
            .requiredNodeTerms(Inventory.inPools(Set.of("p")))
            .build();
    ClusterView view = ClusterView.of(List.of(), List.of(gated, running("r", "a", "cpu", 1)));
    assertThat(view.unschedulable()).isEmpty();
  }

  @Test
  void unknownClusterMeansUnknownUtilization() {
    PoolSnapshot s =
        build(
            "p",
            CONFIG,
            List.of(node("a", "p", NodeState.READY, DesiredPower.ON)),
            ClusterView.unknown("Kubernetes API unavailable: 503"));
    assertThat(s.utilization().known()).isFalse();
    assertThat(s.utilization().reason()).contains("503");
  }

  @Test
  void aReadyMemberWithoutKubernetesNodeMakesUtilizationUnknown() {
    PoolSnapshot s =
        build(
            "p",
            CONFIG,
            List.of(
                node("a", "p", NodeState.READY, DesiredPower.ON),
                node("b", "p", NodeState.READY, DesiredPower.ON)),
            ClusterView.of(List.of(kubeNode("a", true, "cpu", 4)), List.of()));
    assertThat(s.utilization().known()).isFalse();
    assertThat(s.utilization().reason()).contains("ready member b");
  }

  @Test
  void theKubernetesNodeIsNamedByStatusThenSpecThenId() {
    Node bySpec = node("a", "p", NodeState.READY, DesiredPower.ON);
    bySpec =
        new Node(
            "a",
            bySpec.spec().toBuilder().kubernetesNodeName("worker-a").build(),
            10,
            bySpec.status(),
            11,
            null);
    assertThat(SnapshotBuilder.kubeName(bySpec)).isEqualTo("worker-a");
    Node byStatus =
        new Node(
            "a",
            bySpec.spec(),
            10,
            bySpec.status().toBuilder().kubernetesNode("k8s-a").build(),
            11,
            null);
    assertThat(SnapshotBuilder.kubeName(byStatus)).isEqualTo("k8s-a");
    assertThat(SnapshotBuilder.kubeName(node("z", "p", NodeState.OFF, DesiredPower.OFF)))
        .isEqualTo("z");
  }

  @Test
  void memberFactsComeFromTheNodeItsPodsAndItsStatus() {
    Node plain = node("a", "p", NodeState.READY, DesiredPower.ON);
    Node labelled =
        new Node(
            "b",
            plain.spec().toBuilder().labels(Map.of("bamel.io/do-not-disrupt", "true")).build(),
            10,
            plain.status(),
            11,
            null);
    Node failing =
        new Node("c", plain.spec(), 10, plain.status().toBuilder().errorCount(3).build(), 11, null);
    Node manual =
        new Node(
            "d",
            plain.spec().toBuilder()
                .powerPolicy(io.bamel.inventory.model.PowerPolicy.MANUAL)
                .maintenance(true)
                .build(),
            10,
            plain.status(),
            11,
            null);
    KubeNode annotated =
        new KubeNode(
            "e",
            true,
            false,
            Map.of(),
            Map.of("bamel.io/do-not-disrupt", "true"),
            Inventory.amounts("cpu", 4));
    KubePod bare =
        KubePod.builder()
            .ref(new PodRef("default", "bare"))
            .nodeName("a")
            .phase("Running")
            .scheduled(true)
            .build();
    KubePod daemon =
        KubePod.builder()
            .ref(new PodRef("default", "ds"))
            .nodeName("c")
            .phase("Running")
            .scheduled(true)
            .ownerKind("DaemonSet")
            .build();
    KubePod precious =
        KubePod.builder()
            .ref(new PodRef("default", "db"))
            .nodeName("f")
            .phase("Running")
            .scheduled(true)
            .ownerKind("StatefulSet")
            .annotations(Map.of("bamel.io/do-not-disrupt", "true"))
            .build();
    Node e = new Node("e", plain.spec(), 10, plain.status(), 11, null);
    Node f = new Node("f", plain.spec(), 10, plain.status(), 11, null);
    ClusterView view =
        ClusterView.of(
            List.of(
                kubeNode("a", true),
                kubeNode("b", true),
                kubeNode("c", true),
                kubeNode("d", true),
                annotated,
                kubeNode("f", true)),
            List.of(bare, daemon, precious));
    PoolSnapshot s = build("p", CONFIG, List.of(plain, labelled, failing, manual, e, f), view);
    assertThat(member(s, "a").hasUnevictablePods()).isTrue();
    assertThat(member(s, "a").doNotDisrupt()).isFalse();
    assertThat(member(s, "b").doNotDisrupt()).isTrue();
    assertThat(member(s, "c").recentFailures()).isEqualTo(3);
    assertThat(member(s, "c").hasUnevictablePods()).isFalse();
    assertThat(member(s, "d").managed()).isFalse();
    assertThat(member(s, "d").maintenance()).isTrue();
    assertThat(member(s, "e").doNotDisrupt()).isTrue();
    assertThat(member(s, "f").doNotDisrupt()).isTrue();
  }

  @Test
  void karpenterAndClusterAutoscalerAnnotationsCountAsDoNotDisrupt() {
    Node plain = node("a", "p", NodeState.READY, DesiredPower.ON);
    List<Node> nodes = new java.util.ArrayList<>();
    for (String id : List.of("g", "h", "i", "j", "k")) {
      nodes.add(new Node(id, plain.spec(), 10, plain.status(), 11, null));
    }
    ClusterView view =
        ClusterView.of(
            List.of(
                kubeNode("g", true),
                new KubeNode(
                    "h",
                    true,
                    false,
                    Map.of(),
                    Map.of("cluster-autoscaler.kubernetes.io/scale-down-disabled", "true"),
                    Inventory.amounts("cpu", 4)),
                kubeNode("i", true),
                new KubeNode(
                    "j",
                    true,
                    false,
                    Map.of(),
                    Map.of("cluster-autoscaler.kubernetes.io/safe-to-evict", "false"),
                    Inventory.amounts("cpu", 4)),
                new KubeNode(
                    "k",
                    true,
                    false,
                    Map.of(),
                    Map.of("karpenter.sh/do-not-disrupt", "true"),
                    Inventory.amounts("cpu", 4))),
            List.of(
                annotatedPod("g", Map.of("karpenter.sh/do-not-disrupt", "true")),
                annotatedPod(
                    "i", Map.of("cluster-autoscaler.kubernetes.io/safe-to-evict", "false"))));
    PoolSnapshot s = build("p", CONFIG, nodes, view);
    assertThat(member(s, "g").doNotDisrupt()).as("karpenter on a pod").isTrue();
    assertThat(member(s, "h").doNotDisrupt()).as("scale-down-disabled on a node").isTrue();
    assertThat(member(s, "i").doNotDisrupt()).as("safe-to-evict false on a pod").isTrue();
    assertThat(member(s, "j").doNotDisrupt()).as("safe-to-evict is a pod annotation").isFalse();
    assertThat(member(s, "k").doNotDisrupt()).as("karpenter on a node").isTrue();
    assertThat(member(s, "g").canBePoweredOff()).isFalse();
    assertThat(member(s, "j").canBePoweredOff()).isTrue();
  }

  private static KubePod annotatedPod(String node, Map<String, String> annotations) {
    return KubePod.builder()
        .ref(new PodRef("default", "pod-on-" + node))
        .nodeName(node)
        .phase("Running")
        .scheduled(true)
        .ownerKind("ReplicaSet")
        .annotations(annotations)
        .build();
  }

  @Test
  void canPowerOffComesFromThePredicate() {
    Node wol = node("w", "p", NodeState.READY, DesiredPower.ON);
    wol =
        new Node(
            "w",
            wol.spec().toBuilder().powerInterface(PowerInterface.of("wol")).build(),
            10,
            wol.status(),
            11,
            null);
    Node redfish = node("r", "p", NodeState.READY, DesiredPower.ON);
    PoolSnapshot s =
        SnapshotBuilder.build(
            CONFIG,
            List.of(wol, redfish),
            ClusterView.unknown("none"),
            Votes.NONE,
            PoolMemory.NONE,
            PowerOffSupport.conservative(),
            NOW);
    assertThat(member(s, "w").canPowerOff()).isFalse();
    assertThat(member(s, "r").canPowerOff()).isTrue();
  }

  @Test
  void aJoiningNodePastThePoolsJoinTimeoutHasTimedOut() {
    PoolConfig config =
        PoolConfig.builder()
            .timeouts(
                io.bamel.inventory.model.NodeTimeouts.of(null, Duration.ofMinutes(30), null, null))
            .build();
    Node old = node("old", "p", NodeState.JOINING, DesiredPower.ON); // in state since 11:00
    NodeStatus fresh =
        NodeStatus.builder().state(NodeState.JOINING).stateSince(NOW.minusSeconds(600)).build();
    Node young = new Node("young", old.spec(), 10, fresh, 11, null);
    NodeStatus timed =
        NodeStatus.builder()
            .state(NodeState.JOINING)
            .stateSince(NOW.minus(Duration.ofHours(2)))
            .timerElapsed(Duration.ofMinutes(5))
            .build();
    Node paused = new Node("paused", old.spec(), 10, timed, 11, null);
    PoolSnapshot s = build("p", config, List.of(old, young, paused), ClusterView.unknown("none"));
    assertThat(member(s, "old").joinTimedOut()).isTrue();
    assertThat(member(s, "young").joinTimedOut()).isFalse();
    assertThat(member(s, "paused").joinTimedOut())
        .as("a paused step timer counts, not the state age")
        .isFalse();
  }

  @Test
  void votesAndMemoryPassThrough() {
    Instant low = NOW.minusSeconds(60);
    Instant up = NOW.minusSeconds(600);
    PoolSnapshot s =
        SnapshotBuilder.build(
            CONFIG,
            List.of(),
            ClusterView.unknown("none"),
            new Votes(Set.of("u"), Set.of("d"), Set.of("d", "e"), true, null),
            new PoolMemory(low, up),
            n -> true,
            NOW);
    assertThat(s.upVotes()).containsExactly("u");
    assertThat(s.downTriggers()).containsExactlyInAnyOrder("d", "e");
    assertThat(s.lowSince()).isEqualTo(low);
    assertThat(s.lastScaleUp()).isEqualTo(up);
  }
}
