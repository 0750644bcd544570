package io.bamel.inventory.cluster;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * No Kubernetes integration: there are no nodes or pods, writes do nothing, and the cluster is
 * never reachable. The node controller then treats a node whose BMC reports on as ready.
 */
public final class DisconnectedCluster implements Cluster {

  /** The one instance. */
  public static final DisconnectedCluster INSTANCE = new DisconnectedCluster();

  private DisconnectedCluster() {}

  @Override
  public boolean enabled() {
    return false;
  }

  @Override
  public boolean reachable() {
    return false;
  }

  @Override
  public List<KubeNode> nodes() {
    return List.of();
  }

  @Override
  public Optional<KubeNode> node(String name) {
    return Optional.empty();
  }

  @Override
  public List<KubePod> pods() {
    return List.of();
  }

  @Override
  public List<KubePod> podsOn(String nodeName) {
    return List.of();
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
    return new EvictionResult(pod, EvictionResult.Status.GONE, "no Kubernetes integration");
  }

  @Override
  public void close() {}
}
