package io.bamel.inventory.cluster;

import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * A {@link Cluster} whose writes (cordon, uncordon, label, evict, events) first ask {@code leads}
 * whether this process may still act, and when it may not, send nothing and throw {@link
 * ClusterFencedException} naming the write. Reads pass through. The predicate is asked at every
 * write, just before it is sent, so a leader deposed between its decision and its write is stopped.
 * Thread-safe when the delegate and the predicate are.
 */
public final class FencedCluster extends ForwardingCluster {

  private final BooleanSupplier leads;
  private final String holder;

  /**
   * Writes to {@code delegate} only while {@code leads} says so; {@code holder} names what must be
   * held ("leadership of pool-controller", "ownership of node n1") in the refusal.
   */
  public FencedCluster(Cluster delegate, BooleanSupplier leads, String holder) {
    super(delegate);
    this.leads = leads;
    this.holder = holder;
  }

  private void check(String write) {
    if (!leads.getAsBoolean()) {
      throw new ClusterFencedException(
          write + " not sent: this process lost the " + holder + " (deposed; nothing written)");
    }
  }

  @Override
  public boolean cordon(String nodeName) {
    check("cordon of " + nodeName);
    return super.cordon(nodeName);
  }

  @Override
  public boolean uncordon(String nodeName) {
    check("uncordon of " + nodeName);
    return super.uncordon(nodeName);
  }

  @Override
  public boolean label(String nodeName, Map<String, String> labels) {
    check("label of " + nodeName);
    return super.label(nodeName, labels);
  }

  @Override
  public EvictionResult evict(PodRef pod) {
    check("eviction of " + pod);
    return super.evict(pod);
  }

  @Override
  public void notice(NodeNotice notice) {
    check("event " + notice.reason() + " on " + notice.nodeName());
    super.notice(notice);
  }
}
