package io.bamel.bench.pool;

import io.bamel.inventory.cluster.FixedCluster;
import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import java.util.List;

/**
 * A Kubernetes cluster held in memory: fixed lists of nodes and pods, no API server. It lets the
 * benchmark time the pool controller's own work; listing from a real API server is I/O, like the
 * etcd read the cycle is compared with. Writes do nothing; the benchmark swaps the pods.
 */
final class StaticCluster extends FixedCluster {

  StaticCluster(List<KubeNode> nodes, List<KubePod> pods) {
    super(true, nodes, pods, "static cluster");
  }

  void pods(List<KubePod> pods) {
    replacePods(pods);
  }
}
