package io.bamel.kube;

import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.NodePods;
import io.bamel.inventory.cluster.PodSummary;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link PodSummary} of the pod informer's store, kept up to date change by change ({@link
 * MappedStore.Listener}) instead of recomputed from the 50,000 pods at every read: each node's
 * {@link NodePods} is replaced, never modified, when a pod bound to it appears, changes or goes
 * (exact sums, so it never drifts from a summary computed afresh), and the pods waiting for a node
 * are kept by key.
 *
 * <p>Changed by the informer's single thread, read by any: a reader gets a live view in which each
 * node's total is a consistent snapshot (one atomic replacement per change), which is what one
 * decision cycle needs.
 */
final class PodTotals implements MappedStore.Listener<KubePod> {

  private final Map<String, NodePods> byNode = new ConcurrentHashMap<>();
  private final Map<String, KubePod> pending = new ConcurrentHashMap<>();

  @Override
  public void changed(String key, KubePod before, KubePod after) {
    if (before != null && NodePods.counts(before)) {
      byNode.computeIfPresent(
          before.nodeName(),
          (name, total) -> {
            NodePods less = total.minus(before);
            return less.isEmpty() ? null : less;
          });
    }
    if (after != null && NodePods.counts(after)) {
      byNode.compute(
          after.nodeName(), (name, total) -> (total == null ? NodePods.NONE : total).plus(after));
    }
    if (after != null && PodSummary.pending(after)) {
      pending.put(key, after);
    } else {
      pending.remove(key);
    }
  }

  /** The live summary: per node, a consistent snapshot; the pending pods as of now. */
  PodSummary summary() {
    return new PodSummary(byNode, pending.values().stream().toList());
  }
}
