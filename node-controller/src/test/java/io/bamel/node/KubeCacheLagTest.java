package io.bamel.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.EvictionResult;
import io.bamel.inventory.cluster.FixedCluster;
import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.PodRef;
import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeHardware;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.ObservedPower;
import io.bamel.inventory.model.PowerAction;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.power.BmcPowerState;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Security issue 30, finding 1, with the watched cache behind the API server: the race behind the
 * intermittent failures of {@code KubernetesRetargetAttackIT}. A write token points machine m1
 * ({@code node-0001} in Kubernetes) at {@code cp-1}, which registered at the API server a moment
 * ago, and powers m1 off; m1 is reconciled before the node informer has delivered {@code cp-1}. The
 * cluster here reads from one map (the cache) and writes by name to another (the API server), as
 * {@code Fabric8Cluster} does, so the lag is a fixture, not a timing: each step is what one
 * reconciliation does ({@link NodeKube#observe}, {@link NodeStateMachine#decide}, {@link
 * NodeKube#act}).
 */
class KubeCacheLagTest {

  static final Instant T0 = Instant.parse("2026-11-29T06:00:00Z");
  static final String M1_UUID = "4c4c4544-0031-3010-8052-b7c04f333231";
  static final String CP1_UUID = "4c4c4544-0042-3510-8053-b4c04f4e3232";

  final LaggingCluster cluster = new LaggingCluster();
  final NodeKube kube =
      new NodeKube(cluster, OwnsEveryNode.INSTANCE, Clock.fixed(T0, ZoneOffset.UTC));

  @Test
  void retargetedAtANodeTheCacheHasNotSeen_nothingIsSentAndTheMachineStaysReady() {
    cluster.registers(node("node-0001", M1_UUID), true);
    cluster.registers(node("cp-1", CP1_UUID), false); // at the API server, not yet in the cache
    NodeStatus ready = status(NodeState.READY, "node-0001");
    NodeSpec attacked = spec("cp-1", DesiredPower.OFF);

    KubeView view = kube.observe("m1", attacked, ready);
    Decision d = reconcile(attacked, ready, view);

    assertThat(cluster.sent).as("writes sent to the API server").isEmpty();
    assertThat(view.mode()).isEqualTo(KubeView.Mode.REFUSED);
    assertThat(view.identity().outcome()).isEqualTo(KubeIdentity.Outcome.UNKNOWN);
    assertThat(view.identity().detail()).contains("cp-1").contains("node-0001");
    assertThat(d.next().state()).as("not draining, not switched off").isEqualTo(NodeState.READY);
    assertThat(d.action()).isEqualTo(Action.NONE);

    // the informer catches up: the refusal becomes a mismatch, still nothing sent
    cluster.cache.put("cp-1", cluster.server.get("cp-1"));
    KubeView seen = kube.observe("m1", attacked, d.next());
    Decision later = reconcile(attacked, d.next(), seen);
    assertThat(seen.identity().outcome()).isEqualTo(KubeIdentity.Outcome.MISMATCH);
    assertThat(later.next().state()).isEqualTo(NodeState.READY);
    assertThat(cluster.sent).isEmpty();
  }

  @Test
  void aMachineNeverSeenInKubernetesRetargeted_isNotCordonedThere() {
    cluster.registers(node("cp-1", CP1_UUID), false);
    NodeStatus joining = status(NodeState.JOINING, null);
    NodeSpec attacked = spec("cp-1", DesiredPower.OFF);

    KubeView view = kube.observe("m1", attacked, joining);
    Decision d = reconcile(attacked, joining, view);

    assertThat(view).isEqualTo(KubeView.ABSENT); // never seen: not in Kubernetes, as far as known
    assertThat(d.next().state()).isEqualTo(NodeState.DRAINING);
    assertThat(d.action()).as("nothing to cordon on a node not seen").isEqualTo(Action.NONE);
    assertThat(cluster.sent).isEmpty();
  }

  @Test
  void anActionOnANodeTheCacheDoesNotHold_isDeferredUnsent() {
    cluster.registers(node("cp-1", CP1_UUID), false);
    NodeStatus ready = status(NodeState.READY, "cp-1");
    NodeSpec spec = spec("cp-1", DesiredPower.OFF);

    for (Action action :
        List.of(
            Action.drain(List.of(new PodRef("apps", "db-0"))),
            Action.uncordon(),
            Action.label(Action.Kind.ADMIT, Map.of(Cluster.POOL_LABEL, "batch")),
            Action.label(Action.Kind.LABEL, Map.of(Cluster.POOL_LABEL, "batch")))) {
      assertThatThrownBy(() -> kube.act("m1", spec, ready, action))
          .isInstanceOf(KubeNodeUnseenException.class)
          .hasMessageContaining("cp-1");
    }
    assertThat(cluster.sent).isEmpty();
  }

  @Test
  void theMachinesOwnNodeGoneFromKubernetes_stillDrainsToOff() {
    // node-0001 was deleted from Kubernetes: the machine's own name, absent, is no retarget
    NodeStatus ready = status(NodeState.READY, "node-0001");
    NodeSpec off = spec(null, DesiredPower.OFF);

    Decision draining = reconcile(off, ready, kube.observe("m1", off, ready));
    assertThat(draining.next().state()).isEqualTo(NodeState.DRAINING);
    assertThat(draining.action()).isEqualTo(Action.NONE);
    Decision poweringOff =
        reconcile(off, draining.next(), kube.observe("m1", off, draining.next()));
    assertThat(poweringOff.next().state()).isEqualTo(NodeState.POWERING_OFF);
    assertThat(poweringOff.action().power()).isEqualTo(PowerAction.POWER_OFF);
    assertThat(cluster.sent).isEmpty();
  }

  @Test
  void theMachinesOwnNodeProven_isDrained() {
    cluster.registers(node("node-0001", M1_UUID), true);
    NodeStatus ready = status(NodeState.READY, "node-0001");
    NodeSpec off = spec(null, DesiredPower.OFF);

    Decision d = reconcile(off, ready, kube.observe("m1", off, ready));

    assertThat(d.next().state()).isEqualTo(NodeState.DRAINING);
    assertThat(cluster.sent).containsExactly("cordon node-0001");
  }

  // ------------------------------------------------------------------ fixtures

  /**
   * Decides on {@code view} and, as the reconciler does, carries out a Kubernetes action (a power
   * action is only decided here).
   */
  private Decision reconcile(NodeSpec spec, NodeStatus status, KubeView view) {
    Decision d =
        NodeStateMachine.decide(
            new Observation(
                spec,
                7,
                status,
                PowerReading.of(BmcPowerState.ON),
                view,
                NodeStateMachineTest.TIMEOUTS,
                Map.of(),
                T0));
    if (d.action().kind() != Action.Kind.NONE && !d.action().isPower()) {
      kube.act("m1", spec, status, d.action());
    }
    return d;
  }

  static NodeSpec spec(String kubernetesNodeName, DesiredPower desired) {
    return NodeSpec.builder()
        .name("node-0001")
        .kubernetesNodeName(kubernetesNodeName)
        .pool("batch")
        .mgmtAddress("https://192.0.2.1")
        .powerInterface(PowerInterface.of("redfish"))
        .desiredPower(desired)
        .build();
  }

  /**
   * Node m1 in {@code state}, last seen in Kubernetes as {@code kubernetesNode}, its UUID known.
   */
  static NodeStatus status(NodeState state, String kubernetesNode) {
    return NodeStatus.builder()
        .state(state)
        .stateSince(T0.minusSeconds(60))
        .observedPower(ObservedPower.ON)
        .kubernetesNode(kubernetesNode)
        .nodeReady(kubernetesNode != null)
        .hardware(
            new NodeHardware(
                T0.minusSeconds(120),
                null,
                null,
                null,
                M1_UUID,
                null,
                null,
                null,
                null,
                null,
                null,
                null))
        .build();
  }

  static KubeNode node(String name, String systemUuid) {
    return new KubeNode(name, true, false, Map.of(), Map.of(), Map.of(), systemUuid, null);
  }

  /**
   * Reads from {@link #cache} (the informer's view), writes by name to {@link #server} (the API
   * server's nodes), recording each write that reached an existing node. No pods.
   */
  static final class LaggingCluster extends FixedCluster {
    final Map<String, KubeNode> cache = new HashMap<>();
    final Map<String, KubeNode> server = new HashMap<>();
    final List<String> sent = new ArrayList<>();

    LaggingCluster() {
      super(true, List.of(), List.of(), "no pods");
    }

    void registers(KubeNode node, boolean cached) {
      server.put(node.name(), node);
      if (cached) {
        cache.put(node.name(), node);
      }
    }

    private boolean write(String what, String name) {
      if (!server.containsKey(name)) {
        return false; // 404
      }
      sent.add(what + " " + name);
      return true;
    }

    @Override
    public List<KubeNode> nodes() {
      return List.copyOf(cache.values());
    }

    @Override
    public Optional<KubeNode> node(String name) {
      return Optional.ofNullable(cache.get(name));
    }

    @Override
    public boolean cordon(String nodeName) {
      return write("cordon", nodeName);
    }

    @Override
    public boolean uncordon(String nodeName) {
      return write("uncordon", nodeName);
    }

    @Override
    public boolean label(String nodeName, Map<String, String> labels) {
      return write("label", nodeName);
    }

    @Override
    public EvictionResult evict(PodRef pod) {
      sent.add("evict " + pod);
      return new EvictionResult(pod, EvictionResult.Status.EVICTED, "evicted");
    }
  }
}
