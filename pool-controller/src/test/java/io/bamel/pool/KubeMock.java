package io.bamel.pool;

import io.bamel.kube.testing.KubeApiServer;
import io.bamel.kube.testing.KubeObjects;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;

/**
 * The fabric8 mock API server in CRUD mode on a free loopback port (kube-cluster's {@link
 * KubeApiServer}, whose watches the informers of {@code Fabric8Cluster} need), with the pool tests'
 * nodes and pods (built by kube-cluster's {@link KubeObjects}).
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

  /** A node, Ready or not, with this allocatable (see {@link KubeObjects#quantities}). */
  static Node node(String name, boolean ready, Object... allocatable) {
    return KubeObjects.node(name).ready(ready).allocatable(allocatable).build();
  }

  /** A running, scheduled pod of ReplicaSet {@code rs} on {@code node} with these requests. */
  static Pod running(String name, String node, Object... requests) {
    return KubeObjects.pod(name)
        .owner("ReplicaSet", "rs", "u-" + name)
        .onNode(node)
        .requests(requests)
        .scheduled()
        .build();
  }

  /** An unschedulable pod selecting {@code pool} (null: no pool) with these requests. */
  static Pod pending(String name, String pool, Object... requests) {
    return KubeObjects.pod(name).pool(pool).requests(requests).pending().build();
  }

  /**
   * An unschedulable pod with a node selector on {@code bamel.io/pool} (null: none) and a required
   * node affinity with one term, {@code bamel.io/pool In affinityPools}.
   */
  static Pod pendingWithAffinity(
      String name, String selectorPool, List<String> affinityPools, Object... requests) {
    return KubeObjects.pod(name)
        .pool(selectorPool)
        .requiredPools(affinityPools)
        .requests(requests)
        .pending()
        .build();
  }

  @Override
  public void close() {
    server.close();
  }
}
