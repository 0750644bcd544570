package io.bamel.inventory.cluster;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A {@link Cluster} that passes every call to a delegate, for wrappers that change a few calls and
 * keep the rest (in the manner of Guava's {@code Forwarding*} classes): a subclass overrides what
 * it changes and calls {@code super} to pass it on. {@link #close()} does not close the delegate: a
 * wrapper shares it and its owner closes it. Thread-safe when the delegate is.
 */
public abstract class ForwardingCluster implements Cluster {

  private final Cluster delegate;

  /** Forwards to {@code delegate}. */
  protected ForwardingCluster(Cluster delegate) {
    this.delegate = delegate;
  }

  @Override
  public boolean enabled() {
    return delegate.enabled();
  }

  @Override
  public boolean reachable() {
    return delegate.reachable();
  }

  @Override
  public boolean synced() {
    return delegate.synced();
  }

  @Override
  public List<KubeNode> nodes() {
    return delegate.nodes();
  }

  @Override
  public Optional<KubeNode> node(String name) {
    return delegate.node(name);
  }

  @Override
  public List<KubePod> pods() {
    return delegate.pods();
  }

  @Override
  public PodSummary podSummary() {
    return delegate.podSummary();
  }

  @Override
  public List<KubePod> podsOn(String nodeName) {
    return delegate.podsOn(nodeName);
  }

  @Override
  public List<KubePod> serverPodsOn(String nodeName) {
    return delegate.serverPodsOn(nodeName);
  }

  @Override
  public boolean cordon(String nodeName) {
    return delegate.cordon(nodeName);
  }

  @Override
  public boolean uncordon(String nodeName) {
    return delegate.uncordon(nodeName);
  }

  @Override
  public boolean label(String nodeName, Map<String, String> labels) {
    return delegate.label(nodeName, labels);
  }

  @Override
  public EvictionResult evict(PodRef pod) {
    return delegate.evict(pod);
  }

  @Override
  public void notice(NodeNotice notice) {
    delegate.notice(notice);
  }

  @Override
  public void onPendingPod(Consumer<KubePod> listener) {
    delegate.onPendingPod(listener);
  }

  /** Does not close the delegate: it is shared. */
  @Override
  public void close() {}
}
