package io.bamel.pool;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.NodeRequirement;
import io.bamel.inventory.cluster.PodRef;
import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.inventory.model.ResourceCapacity;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Inventory nodes and Kubernetes records for snapshot and status tests. */
final class Inventory {

  private Inventory() {}

  /** A redfish node of {@code pool} with 32 cores and 128 GiB, in {@code state}. */
  static Node node(String id, String pool, NodeState state, DesiredPower desired) {
    NodeSpec spec =
        NodeSpec.builder()
            .pool(pool)
            .rack("r1")
            .powerInterface(PowerInterface.of("redfish"))
            .mgmtAddress("https://192.0.2.1")
            .resources(ResourceCapacity.of("32", "128Gi", null))
            .desiredPower(desired)
            .build();
    NodeStatus status =
        NodeStatus.builder().state(state).stateSince(Instant.parse("2026-06-01T11:00:00Z")).build();
    return new Node(id, spec, 10, status, 11, null);
  }

  static KubeNode kubeNode(String name, boolean ready, Object... allocatable) {
    return new KubeNode(name, ready, false, Map.of(), Map.of(), amounts(allocatable));
  }

  static KubePod running(String name, String node, Object... requests) {
    return KubePod.builder()
        .ref(new PodRef("default", name))
        .nodeName(node)
        .phase("Running")
        .requests(amounts(requests))
        .scheduled(true)
        .ownerKind("ReplicaSet")
        .build();
  }

  /** A required node affinity of one term, {@code bamel.io/pool In pools}; none when empty. */
  static List<List<NodeRequirement>> inPools(Set<String> pools) {
    return pools.isEmpty()
        ? List.of()
        : List.of(
            List.of(
                new NodeRequirement(Cluster.POOL_LABEL, "In", pools.stream().sorted().toList())));
  }

  static KubePod unschedulable(String name, Set<String> pools, Object... requests) {
    return KubePod.builder()
        .ref(new PodRef("default", name))
        .phase("Pending")
        .requests(amounts(requests))
        .scheduled(false)
        .scheduledReason("Unschedulable")
        .ownerKind("ReplicaSet")
        .requiredPools(pools)
        .requiredNodeTerms(inPools(pools))
        .build();
  }

  static Map<String, BigDecimal> amounts(Object... pairs) {
    Map<String, BigDecimal> map = new HashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put((String) pairs[i], new BigDecimal(pairs[i + 1].toString()));
    }
    return map;
  }
}
