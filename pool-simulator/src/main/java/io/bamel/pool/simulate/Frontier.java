package io.bamel.pool.simulate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Policy families compared at equal wait: for each family (bamel, cluster-autoscaler, Karpenter,
 * kproximate), the results of a sweep over its own documented knobs ({@link FrontierSweep}), its
 * energy/p99 frontier, and the least energy it reaches at or below each p99 bound. One point per
 * family compares a trade-off with a setting; the frontier compares the trade-offs.
 *
 * <p>Pure: built from results, it runs nothing. The first result of each family is its defaults,
 * whose p99 is a bound ({@link #bounds()}), beside 0 s and issue 34's 60 s.
 *
 * @param oracle the oracle's result on the same workload (energies are set against it)
 * @param families each family's results, its defaults first, in the order given
 */
public record Frontier(PolicyResult oracle, Map<String, List<PolicyResult>> families) {

  /** The p99 of issue 34's target. */
  public static final double TARGET_P99_SECONDS = 60;

  /** Copies the map, keeping its order; each family needs one result at least. */
  public Frontier {
    Map<String, List<PolicyResult>> copy = new LinkedHashMap<>();
    families.forEach(
        (k, v) -> {
          if (v.isEmpty()) {
            throw new IllegalArgumentException("family " + k + " has no result");
          }
          copy.put(k, List.copyOf(v));
        });
    families = java.util.Collections.unmodifiableMap(copy);
  }

  /**
   * A p99 bound at which the families are compared.
   *
   * @param label what it is ({@code 0 s}, {@code 60 s (target)}, {@code karpenter defaults})
   * @param seconds the bound
   */
  public record Bound(String label, double seconds) {}

  /**
   * The Pareto frontier of {@code results}: those no other result beats in both energy and p99 (an
   * equal p99 and less energy, or a lower p99 and no more energy), by p99 rising (so energy
   * falling); of equal results, the first given.
   */
  public static List<PolicyResult> pareto(List<PolicyResult> results) {
    List<PolicyResult> sorted = new ArrayList<>(results);
    sorted.sort(
        Comparator.comparingDouble(PolicyResult::waitP99Seconds)
            .thenComparingDouble(PolicyResult::energyKWh));
    List<PolicyResult> out = new ArrayList<>();
    double best = Double.POSITIVE_INFINITY;
    for (PolicyResult r : sorted) {
      if (r.energyKWh() < best) {
        out.add(r);
        best = r.energyKWh();
      }
    }
    return out;
  }

  /** The frontier of family {@code family}. */
  public List<PolicyResult> pareto(String family) {
    return pareto(results(family));
  }

  /**
   * The result of {@code family} with the least energy among those whose p99 is at most {@code
   * p99Seconds}; empty when none waits that little.
   */
  public Optional<PolicyResult> leastEnergyAt(String family, double p99Seconds) {
    return results(family).stream()
        .filter(r -> r.waitP99Seconds() <= p99Seconds)
        .min(Comparator.comparingDouble(PolicyResult::energyKWh));
  }

  /**
   * The other families that beat {@code family} at every wait it reaches: for each of its results,
   * one of theirs with an equal or lower p99 and strictly less energy.
   */
  public List<String> dominators(String family) {
    List<String> out = new ArrayList<>();
    for (String other : families.keySet()) {
      if (other.equals(family)) {
        continue;
      }
      boolean beatsAll = true;
      for (PolicyResult r : results(family)) {
        Optional<PolicyResult> theirs = leastEnergyAt(other, r.waitP99Seconds());
        if (theirs.isEmpty() || theirs.get().energyKWh() >= r.energyKWh()) {
          beatsAll = false;
          break;
        }
      }
      if (beatsAll) {
        out.add(other);
      }
    }
    return out;
  }

  /**
   * The bounds compared: 0 s, {@value #TARGET_P99_SECONDS} s (issue 34's target), and the p99 of
   * each family's defaults (its first result), by p99 rising.
   */
  public List<Bound> bounds() {
    List<Bound> out = new ArrayList<>();
    out.add(new Bound("0 s", 0));
    out.add(new Bound("60 s (target)", TARGET_P99_SECONDS));
    families.forEach(
        (family, results) ->
            out.add(new Bound(family + " defaults", results.get(0).waitP99Seconds())));
    out.sort(Comparator.comparingDouble(Bound::seconds));
    return out;
  }

  /** The results of {@code family}. */
  public List<PolicyResult> results(String family) {
    List<PolicyResult> r = families.get(family);
    if (r == null) {
      throw new IllegalArgumentException("no family " + family);
    }
    return r;
  }

  /** The frontier as text: least energy per family and bound, each family's frontier, dominance. */
  public String table() {
    StringBuilder out = new StringBuilder();
    out.append(
        "FRONTIER: least energy / oracle at p99 <= bound (-: no setting waits that little)\n");
    out.append(String.format(Locale.ROOT, "%-20s", "BOUND"));
    for (String family : families.keySet()) {
      out.append(String.format(Locale.ROOT, " %20s", family));
    }
    out.append('\n');
    for (Bound b : bounds()) {
      out.append(
          String.format(Locale.ROOT, "%-20s", String.format(Locale.ROOT, "%.0f s", b.seconds())));
      for (String family : families.keySet()) {
        out.append(
            String.format(
                Locale.ROOT,
                " %20s",
                leastEnergyAt(family, b.seconds())
                    .map(r -> String.format(Locale.ROOT, "%.3f", r.energyVsOracle()))
                    .orElse("-")));
      }
      out.append("  ").append(b.label()).append('\n');
    }
    for (String family : families.keySet()) {
      out.append(family).append(" frontier (p99 s, energy / oracle):");
      for (PolicyResult r : pareto(family)) {
        out.append(
            String.format(
                Locale.ROOT,
                "%n  %6.0f  %.3f  %s",
                r.waitP99Seconds(),
                r.energyVsOracle(),
                r.policy()));
      }
      List<String> by = dominators(family);
      out.append('\n');
      if (!by.isEmpty()) {
        out.append("  dominated at every wait by ").append(String.join(", ", by)).append('\n');
      }
    }
    return out.toString();
  }

  /**
   * The frontier for {@code --output json}: per family its results (energy, p99), its frontier
   * (policy names), the families dominating it, and per bound its least energy.
   */
  public Map<String, Object> json() {
    Map<String, Object> doc = new LinkedHashMap<>();
    List<Map<String, Object>> bounds = new ArrayList<>();
    for (Bound b : bounds()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("bound", b.label());
      row.put("waitP99Seconds", b.seconds());
      Map<String, Object> least = new LinkedHashMap<>();
      for (String family : families.keySet()) {
        least.put(family, leastEnergyAt(family, b.seconds()).map(Frontier::point).orElse(null));
      }
      row.put("leastEnergy", least);
      bounds.add(row);
    }
    doc.put("bounds", bounds);
    Map<String, Object> fams = new LinkedHashMap<>();
    families.forEach(
        (family, results) -> {
          Map<String, Object> f = new LinkedHashMap<>();
          f.put("results", results.stream().map(Frontier::point).toList());
          f.put("frontier", pareto(family).stream().map(PolicyResult::policy).toList());
          f.put("dominatedBy", dominators(family));
          fams.put(family, f);
        });
    doc.put("families", fams);
    return doc;
  }

  private static Map<String, Object> point(PolicyResult r) {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("policy", r.policy());
    p.put("energyKWh", r.energyKWh());
    p.put("energyVsOracle", r.energyVsOracle());
    p.put("waitP99Seconds", r.waitP99Seconds());
    p.put("waitMaxSeconds", r.waitMaxSeconds());
    p.put("powerOnsPerServerDay", r.powerOnsPerServerDay());
    return p;
  }
}
