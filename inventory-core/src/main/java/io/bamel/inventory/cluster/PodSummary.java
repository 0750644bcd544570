package io.bamel.inventory.cluster;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The pods of the cluster as a pool decision needs them, without the pods themselves: for each node
 * name, what its live pods add up to ({@link NodePods}; a name with none is absent), and the pods
 * the scheduler could not place ({@link KubePod#unschedulable()}, not bound, not finished).
 *
 * <p>A cache fed by watches may keep it up to date as events arrive and hand out a live view: each
 * node's {@link NodePods} is then a consistent snapshot of that node, but two nodes may be read at
 * different moments, as two reads of a watched cache always are.
 *
 * @param byNode per node name, what its live pods add up to (unmodifiable)
 * @param unschedulable the pods waiting for a node, in no particular order
 */
public record PodSummary(Map<String, NodePods> byNode, List<KubePod> unschedulable) {

  /** No pods. */
  public static final PodSummary NONE = new PodSummary(Map.of(), List.of());

  /** Wraps the map, copies the list. */
  public PodSummary {
    byNode = Collections.unmodifiableMap(byNode);
    unschedulable = List.copyOf(unschedulable);
  }

  /** Whether {@code pod} waits for a node: unschedulable, not bound, not finished. */
  public static boolean pending(KubePod pod) {
    return pod.nodeName() == null && pod.unschedulable() && !pod.terminated();
  }

  /** The summary of {@code pods}, computed afresh (one pass). Pure. */
  public static PodSummary of(List<KubePod> pods) {
    Map<String, NodePods.Builder> totals = new HashMap<>();
    List<KubePod> unschedulable = new ArrayList<>();
    for (KubePod p : pods) {
      if (NodePods.counts(p)) {
        totals.computeIfAbsent(p.nodeName(), n -> new NodePods.Builder()).add(p);
      } else if (pending(p)) {
        unschedulable.add(p);
      }
    }
    Map<String, NodePods> byNode = new HashMap<>(totals.size() * 2);
    totals.forEach((name, b) -> byNode.put(name, b.build()));
    return new PodSummary(byNode, unschedulable);
  }
}
