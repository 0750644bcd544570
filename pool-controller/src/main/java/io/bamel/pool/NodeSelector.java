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
 * <p>Power-on: candidates are ranked by fit to the demand — 1.0 x how much of the resource under
 * pressure they cover plus 0.25 x how much of each other needed resource, then by how little they
 * exceed what is needed (a GPU demand picks a GPU node; a CPU demand avoids wasting one), then the
 * rack with the fewest active pool nodes, then fewer recent failures. Picking several repeats the
 * ranking with the racks and the remaining demand updated.
 *
 * <p>Power-off: among nodes that may be switched off (never one marked do-not-disrupt, holding pods
 * that cannot be evicted, or whose driver cannot power off), the least utilized first, then the
 * rack with the most active nodes.
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
      Comparator<Member> order =
          Comparator.<Member>comparingDouble(
                  m -> -round(fit(m.capacity(), currentNeed, demand.pressure(), maxCapacity)))
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
   * How well {@code capacity} covers {@code need}: 1.0 x the covered share of the pressure resource
   * plus 0.25 x the covered share of each other needed resource. With no explicit need (a busy
   * pool), the capacity in the pressure resource relative to the largest candidate's.
   */
  static double fit(Resources capacity, Resources need, String pressure, Resources maxCapacity) {
    if (need.isEmpty()) {
      double max = maxCapacity.get(pressure);
      return max <= 0 ? 0 : PRESSURE_WEIGHT * capacity.get(pressure) / max;
    }
    double score = 0;
    for (Map.Entry<String, Double> e : need.amounts().entrySet()) {
      double covered = Math.min(capacity.get(e.getKey()), e.getValue()) / e.getValue();
      score += (e.getKey().equals(pressure) ? PRESSURE_WEIGHT : OTHER_WEIGHT) * covered;
    }
    return score;
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
