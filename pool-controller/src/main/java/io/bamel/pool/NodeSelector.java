package io.bamel.pool;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Chooses which nodes to switch on or off. Pure and deterministic: the same inputs give the same
 * order, down to the node id as the last tie-break.
 *
 * <p>Power-on ranks candidates lexicographically, each key only breaking ties of the ones before it
 * (scores are rounded to 6 decimals so float noise never decides):
 *
 * <ol>
 *   <li>fit to the demand, highest first: 1.0 x the pressure resource plus 0.25 x each of the
 *       {@linkplain Demand#others() other} resources. For pending pods each term is the share of
 *       the pods' need in that resource the node covers (at most 1); for a busy pool (no explicit
 *       need) it is the node's capacity in that resource relative to the largest candidate's;
 *   <li>closest to what is needed: the least capacity beyond the need, summed over every resource
 *       the node has, each relative to the largest candidate's (a CPU demand avoids wasting a GPU
 *       node; among nodes that cover pending pods, the smallest that does);
 *   <li>the rack with the fewest active pool nodes (counting the nodes chosen so far);
 *   <li>fewer recent failures;
 *   <li>the node id.
 * </ol>
 *
 * Rack spread and failures are preferences between nodes that fit equally well (in a pool of
 * identical nodes, every candidate): they never make the pool switch on the wrong hardware for the
 * demand. Picking several repeats the ranking with the racks and the remaining need updated.
 *
 * <p>Power-off: among nodes that may be switched off (never one marked do-not-disrupt, holding pods
 * that cannot be evicted, or whose driver cannot power off), the least utilized first, then the
 * rack with the most active nodes, then the node id.
 */
public final class NodeSelector {

  private static final double PRESSURE_WEIGHT = 1.0;
  private static final double OTHER_WEIGHT = 0.25;

  private NodeSelector() {}

  /** Up to {@code count} nodes to switch on for {@code demand}, best first. */
  public static List<Member> powerOn(
      List<Member> candidates, Demand demand, List<Member> active, int count) {
    Map<String, Integer> activeByRack = countByRack(active);
    Resources maxCapacity = maxCapacity(candidates);
    List<Member> remaining = new ArrayList<>(candidates);
    List<Member> chosen = new ArrayList<>();
    Resources need = demand.need();
    while (chosen.size() < count && !remaining.isEmpty()) {
      Resources currentNeed = need;
      Demand current = new Demand(currentNeed, demand.pressure(), demand.others());
      Comparator<Member> order =
          Comparator.<Member>comparingDouble(m -> -round(fit(m.capacity(), current, maxCapacity)))
              .thenComparingDouble(m -> round(excess(m.capacity(), currentNeed, maxCapacity)))
              .thenComparingInt(m -> activeByRack.getOrDefault(rackOf(m), 0))
              .thenComparingInt(Member::recentFailures)
              .thenComparing(Member::id);
      Member best = remaining.stream().min(order).orElseThrow();
      chosen.add(best);
      remaining.remove(best);
      activeByRack.merge(rackOf(best), 1, Integer::sum);
      need = need.minus(best.capacity());
    }
    return chosen;
  }

  /** The nodes that may be switched off, in the order they should be. */
  public static List<Member> powerOff(List<Member> members, List<String> resources) {
    Map<String, Integer> activeByRack =
        countByRack(members.stream().filter(Member::isCapacity).toList());
    return members.stream()
        .filter(Member::canBePoweredOff)
        .sorted(
            Comparator.<Member>comparingDouble(m -> round(utilization(m, resources)))
                .thenComparingInt(m -> -activeByRack.getOrDefault(rackOf(m), 0))
                .thenComparing(Member::id))
        .toList();
  }

  /**
   * How well {@code capacity} covers the demand: 1.0 x the pressure resource plus 0.25 x each other
   * resource. With an explicit need, each term is the covered share of the need in that resource
   * (resources not needed count nothing); without (a busy pool), the capacity in that resource
   * relative to the largest candidate's.
   */
  static double fit(Resources capacity, Demand demand, Resources maxCapacity) {
    Resources need = demand.need();
    if (need.isEmpty()) {
      double score = PRESSURE_WEIGHT * relative(capacity, demand.pressure(), maxCapacity);
      for (String other : demand.others()) {
        score += OTHER_WEIGHT * relative(capacity, other, maxCapacity);
      }
      return score;
    }
    double score = 0;
    for (Map.Entry<String, Double> e : need.amounts().entrySet()) {
      double covered = Math.min(capacity.get(e.getKey()), e.getValue()) / e.getValue();
      score += (e.getKey().equals(demand.pressure()) ? PRESSURE_WEIGHT : OTHER_WEIGHT) * covered;
    }
    return score;
  }

  private static double relative(Resources capacity, String resource, Resources maxCapacity) {
    double max = maxCapacity.get(resource);
    return max <= 0 ? 0 : capacity.get(resource) / max;
  }

  /** How much capacity goes beyond the need, each resource relative to the largest candidate's. */
  static double excess(Resources capacity, Resources need, Resources maxCapacity) {
    double waste = 0;
    for (Map.Entry<String, Double> e : capacity.amounts().entrySet()) {
      double max = maxCapacity.get(e.getKey());
      if (max > 0) {
        waste += Math.max(0, e.getValue() - need.get(e.getKey())) / max;
      }
    }
    return waste;
  }

  /** The highest share of its capacity that a node's pods request, over the resources. */
  static double utilization(Member m, List<String> resources) {
    double max = 0;
    for (String r : resources) {
      double cap = m.capacity().get(r);
      if (cap > 0) {
        max = Math.max(max, m.requested().get(r) / cap);
      }
    }
    return max;
  }

  private static Resources maxCapacity(List<Member> members) {
    Map<String, Double> max = new HashMap<>();
    for (Member m : members) {
      m.capacity().amounts().forEach((k, v) -> max.merge(k, v, Math::max));
    }
    return new Resources(max);
  }

  private static Map<String, Integer> countByRack(List<Member> members) {
    Map<String, Integer> counts = new HashMap<>();
    for (Member m : members) {
      counts.merge(rackOf(m), 1, Integer::sum);
    }
    return counts;
  }

  private static String rackOf(Member m) {
    return m.rack() == null ? "" : m.rack();
  }

  /** Rounds to 6 decimals so float noise never decides an order. */
  private static double round(double v) {
    return Math.round(v * 1e6) / 1e6;
  }
}
