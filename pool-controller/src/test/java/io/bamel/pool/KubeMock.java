package io.bamel.pool;

import io.bamel.kube.testing.KubeApiServer;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fabric8 mock API server in CRUD mode on a free loopback port (kube-cluster's {@link
 * KubeApiServer}, whose watches the informers of {@code Fabric8Cluster} need), with object
 * builders.
 */
final class KubeMock implements AutoCloseable {

  /** Kept so the level sticks: the mock server logs every request through JUL at INFO. */
  private static final java.util.logging.Logger MOCK_LOG =
      java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

  static {
    MOCK_LOG.setLevel(java.util.logging.Level.WARNING);
  }

  private final KubeApiServer server;

  KubeMock() {
    server = KubeApiServer.start();
  }

  /** A new client (see {@link KubeApiServer#client()}); the caller closes it. */
  KubernetesClient client() {
    return server.client();
  }

  /** Every request received, as {@code METHOD path}. */
  List<String> requests() {
    return server.requests();
  }

  static Map<String, Quantity> quantities(Object... pairs) {
    Map<String, Quantity> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put((String) pairs[i], new Quantity(pairs[i + 1].toString()));
    }
    return map;
  }

  /** A node, Ready or not, with this allocatable. */
  static Node node(String name, boolean ready, Object... allocatable) {
    return new NodeBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewStatus()
        .addNewCondition()
        .withType("Ready")
        .withStatus(ready ? "True" : "False")
        .endCondition()
        .withAllocatable(quantities(allocatable))
        .endStatus()
        .build();
  }

  /** A running pod of a ReplicaSet on {@code node} with these requests. */
  static Pod running(String name, String node, Object... requests) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("apps")
        .addNewOwnerReference()
        .withKind("ReplicaSet")
        .withName("rs")
        .withApiVersion("apps/v1")
        .withUid("u-" + name)
        .withController(true)
        .endOwnerReference()
        .endMetadata()
        .withNewSpec()
        .withNodeName(node)
        .addNewContainer()
        .withName("c")
        .withImage("busybox")
        .withNewResources()
        .withRequests(quantities(requests))
        .endResources()
        .endContainer()
        .endSpec()
        .withNewStatus()
        .withPhase("Running")
        .addNewCondition()
        .withType("PodScheduled")
        .withStatus("True")
        .endCondition()
        .endStatus()
        .build();
  }

  /** An unschedulable pod selecting {@code pool} (null: no pool) with these requests. */
  static Pod pending(String name, String pool, Object... requests) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("apps")
        .endMetadata()
        .withNewSpec()
        .withNodeSelector(pool == null ? Map.of() : Map.of("bamel.io/pool", pool))
        .addNewContainer()
        .withName("c")
        .withImage("busybox")
        .withNewResources()
        .withRequests(quantities(requests))
        .endResources()
        .endContainer()
        .endSpec()
        .withNewStatus()
        .withPhase("Pending")
        .addNewCondition()
        .withType("PodScheduled")
        .withStatus("False")
        .withReason("Unschedulable")
        .endCondition()
        .endStatus()
        .build();
  }

  /**
   * An unschedulable pod with a node selector on {@code bamel.io/pool} (null: none) and a required
   * node affinity with one term, {@code bamel.io/pool In affinityPools}.
   */
  static Pod pendingWithAffinity(
      String name, String selectorPool, List<String> affinityPools, Object... requests) {
    Pod pod = pending(name, selectorPool, requests);
    pod.getSpec()
        .setAffinity(
            new AffinityBuilder()
                .withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewNodeSelectorTerm()
                .addNewMatchExpression()
                .withKey("bamel.io/pool")
                .withOperator("In")
                .withValues(affinityPools)
                .endMatchExpression()
                .endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity()
                .build());
    return pod;
  }

  @Override
  public void close() {
    server.close();
  }
}
