package io.bamel.pool.simulate;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.NodePods;
import io.bamel.inventory.cluster.PodRef;
import io.bamel.inventory.cluster.PodSummary;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.Pool;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PoolStatus;
import io.bamel.pool.ClusterView;
import io.bamel.pool.CyclePlan;
import io.bamel.pool.PoolMemory;
import io.bamel.pool.PoolPlan;
import io.bamel.pool.Resources;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * bamel's own decisions in the simulator: each step it builds, from the simulated cluster, what the
 * pool controller reads in production (the inventory's nodes with their spec and status, the
 * Kubernetes nodes and what their pods request, the unschedulable pods, each pool with its config)
 * and runs the pool controller's decision code on it: {@link CyclePlan#prepare} and {@link
 * CyclePlan#plan}, which build the snapshots ({@code SnapshotBuilder}), assign pending pods to
 * pools ({@code PodPools}) and decide ({@code ScalingPolicy}, {@code NodeSelector}, {@code
 * BinPacking}), exactly as {@code PoolController.runCycle} does before it writes to etcd. The
 * decision's power-on and power-off lists are what it switches; the pool memory and status it keeps
 * are the plan's, as the controller keeps them. No Prometheus triggers (none vote).
 *
 * <p>Each server is a node with {@code powerPolicy: pool}, a Redfish power interface (so it can be
 * switched both ways), its capacity as resources, and the status the node state machine wrote
 * ({@link SimNodeController}); its Kubernetes node, named after it, is there from its first join,
 * Ready or not, cordoned or not, labelled with its pool once admitted; each pod asks for its pool
 * by node selector.
 */
public final class BamelAutoscaler implements Autoscaler {

  private final String name;
  private final UnaryOperator<PoolConfig> tune;
  private final Map<String, PoolMemory> memory = new HashMap<>();
  private final Map<String, PoolStatus> statuses = new HashMap<>();
  private ClusterView previous;

  /** bamel with each pool's config from the fleet, named {@code bamel}. */
  public BamelAutoscaler() {
    this("bamel");
  }

  /** bamel under another name (to compare configs side by side). */
  public BamelAutoscaler(String name) {
    this(name, UnaryOperator.identity());
  }

  /**
   * bamel named {@code name}, each pool deciding with {@code tune} applied to its config from the
   * fleet (a variant of the defaults, to compare side by side).
   */
  public BamelAutoscaler(String name, UnaryOperator<PoolConfig> tune) {
    this.name = name;
    this.tune = tune;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Decision decide(ClusterState state) {
    Instant now = Instant.ofEpochSecond(state.now());
    List<Node> nodes = new ArrayList<>(state.servers().size());
    List<KubeNode> kubeNodes = new ArrayList<>();
    Map<String, NodePods> byNode = new HashMap<>();
    Map<String, TreeSet<String>> members = new HashMap<>();
    for (SimServer s : state.servers()) {
      nodes.add(node(s));
      members.computeIfAbsent(s.pool(), k -> new TreeSet<>()).add(s.id());
      if (s.machine().registered()) {
        kubeNodes.add(SimKube.node(s));
        int bound = s.pods().size() + s.leaving().size();
        if (bound > 0) {
          byNode.put(s.id(), new NodePods(kube(s.requested()), bound, 0, 0, workloads(s)));
        }
      }
    }
    List<KubePod> unschedulable = new ArrayList<>(state.pending().size());
    for (SimPod p : state.pending()) {
      unschedulable.add(
          new KubePod(
              new PodRef("sim", p.name()),
              null,
              "Pending",
              kube(p.requests()),
              false,
              "Unschedulable",
              "ReplicaSet",
              Map.of(),
              Map.of(),
              Map.of(Cluster.POOL_LABEL, p.pool()),
              java.util.Set.of(p.pool()),
              List.of()));
    }
    ClusterView view = ClusterView.of(kubeNodes, new PodSummary(byNode, unschedulable), previous);
    previous = view;
    List<Pool> pools = new ArrayList<>();
    for (FleetPool fp : state.fleet().pools()) {
      pools.add(
          new Pool(
              fp.name(),
              tune.apply(fp.config()),
              1,
              statuses.get(fp.name()),
              1,
              members.getOrDefault(fp.name(), new TreeSet<>())));
    }
    CyclePlan cycle =
        CyclePlan.prepare(
            CyclePlan.configured(pools), nodes, view, Map.of(), memory, n -> true, now);
    List<String> on = new ArrayList<>();
    List<String> off = new ArrayList<>();
    for (Pool pool : cycle.pools()) {
      PoolPlan plan = cycle.plan(pool, statuses.get(pool.name()));
      memory.put(pool.name(), plan.memoryAfter());
      statuses.put(pool.name(), plan.status());
      if (!plan.dryRun()) {
        on.addAll(plan.decision().powerOnIds());
        off.addAll(plan.decision().powerOffIds());
      }
    }
    return new Decision(on, off);
  }

  /** The inventory node of a server: its spec and the status the node state machine wrote. */
  private static Node node(SimServer s) {
    return new Node(s.id(), s.spec(), s.specRevision(), s.status(), 1, null);
  }

  /**
   * How many of the pods bound to {@code s} (not those evicted and still terminating: the drain
   * that evicted them is under way) ask for each set of requests, as the pod informer counts them.
   */
  private static Map<Map<String, BigDecimal>, Integer> workloads(SimServer s) {
    Map<Map<String, BigDecimal>, Integer> out = new HashMap<>();
    for (SimPod p : s.pods()) {
      out.merge(p.kubeRequests(), 1, Integer::sum);
    }
    return out;
  }

  /** Resources in Kubernetes' names and base units. */
  private static Map<String, BigDecimal> kube(Resources r) {
    return SimKube.quantities(r);
  }
}
