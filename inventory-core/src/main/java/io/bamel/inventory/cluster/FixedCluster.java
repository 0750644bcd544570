package io.bamel.inventory.cluster;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link Cluster} with no API server behind it: reads answer from lists of nodes and pods held in
 * memory, and writes change nothing ({@link #cordon}, {@link #uncordon} and {@link #label} return
 * false, as for a node that does not exist; {@link #evict} reports the pod gone). It is {@link
 * #reachable()} exactly when it is {@link #enabled()}: there is no server to lose.
 *
 * <p>The one home of that behaviour: {@link DisconnectedCluster} (disabled, empty) is one, and the
 * in-memory clusters of benchmarks and tests extend it and override what they change, in the manner
 * of {@link ForwardingCluster}. Thread-safe: the lists are immutable copies, and a subclass
 * replaces the pods as a whole ({@link #replacePods}).
 */
public abstract class FixedCluster implements Cluster {

  private final boolean enabled;
  private final List<KubeNode> nodes;
  private volatile List<KubePod> pods;
  private final String evictionMessage;

  /**
   * A cluster of {@code nodes} and {@code pods} (copied), {@link #enabled()} and {@link
   * #reachable()} as {@code enabled} says; {@link #evict} answers {@link
   * EvictionResult.Status#GONE} with {@code evictionMessage} (why nothing was evicted).
   */
  protected FixedCluster(
      boolean enabled, List<KubeNode> nodes, List<KubePod> pods, String evictionMessage) {
    this.enabled = enabled;
    this.nodes = List.copyOf(nodes);
    this.pods = List.copyOf(pods);
    this.evictionMessage = evictionMessage;
  }

  /** Replaces every pod by {@code pods} (copied); later reads see the new list. */
  protected void replacePods(List<KubePod> pods) {
    this.pods = List.copyOf(pods);
  }

  @Override
  public boolean enabled() {
    return enabled;
  }

  @Override
  public boolean reachable() {
    return enabled;
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
    return new EvictionResult(pod, EvictionResult.Status.GONE, evictionMessage);
  }

  /** Nothing to release. */
  @Override
  public void close() {}
}
