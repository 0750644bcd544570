package io.bamel.bench.pool;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.EvictionResult;
import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.PodRef;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A Kubernetes cluster held in memory: fixed lists of nodes and pods, no API server. It lets the
 * benchmark time the pool controller's own work; listing from a real API server is I/O, like the
 * etcd read the cycle is compared with. Writes do nothing.
 */
final class StaticCluster implements Cluster {

  private volatile List<KubeNode> nodes;
  private volatile List<KubePod> pods;

  StaticCluster(List<KubeNode> nodes, List<KubePod> pods) {
    this.nodes = List.copyOf(nodes);
    this.pods = List.copyOf(pods);
  }

  void pods(List<KubePod> pods) {
    this.pods = List.copyOf(pods);
  }

  @Override
  public boolean enabled() {
    return true;
  }

  @Override
  public boolean reachable() {
    return true;
  }

  @Override
  public List<KubeNode> nodes() {
    return nodes;
  }

  @Override
  public Optional<KubeNode> node(String name) {
    return nodes.stream().filter(n -> n.name().equals(name)).findFirst();
  }

  @Override
  public List<KubePod> pods() {
    return pods;
  }

  @Override
  public List<KubePod> podsOn(String nodeName) {
    return pods.stream().filter(p -> nodeName.equals(p.nodeName())).toList();
  }

  @Override
  public boolean cordon(String nodeName) {
    return false;
  }

  @Override
  public boolean uncordon(String nodeName) {
    return false;
  }

  @Override
  public boolean label(String nodeName, Map<String, String> labels) {
    return false;
  }

  @Override
  public EvictionResult evict(PodRef pod) {
    return new EvictionResult(pod, EvictionResult.Status.GONE, "static cluster");
  }

  @Override
  public void close() {}
}
