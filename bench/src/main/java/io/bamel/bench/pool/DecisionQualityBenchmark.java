package io.bamel.bench.pool;

import io.bamel.bench.BenchContext;
import io.bamel.bench.BenchResult;
import io.bamel.bench.Benchmark;
import io.bamel.pool.simulate.Autoscaler;
import io.bamel.pool.simulate.BamelAutoscaler;
import io.bamel.pool.simulate.Comparison;
import io.bamel.pool.simulate.EnergyFloor;
import io.bamel.pool.simulate.Fleet;
import io.bamel.pool.simulate.FleetPool;
import io.bamel.pool.simulate.Frontier;
import io.bamel.pool.simulate.FrontierSweep;
import io.bamel.pool.simulate.Oracle;
import io.bamel.pool.simulate.PodTrace;
import io.bamel.pool.simulate.PolicyResult;
import io.bamel.pool.simulate.Simulator;
import io.bamel.pool.simulate.Workload;
import io.bamel.pool.simulate.WorkloadGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code decision-quality}: bamel's default decisions against the oracle and the rivals on the
 * generated workload (7 days, seed 1; {@code -Dbench.decision.days=7,34} adds the 34-day one), on
 * the default fleet sized to its peak (docs/pool-controller.md, "Simulation"). Rows: each policy's
 * energy over the oracle's; bamel's p99 and maximum extra wait; bamel's power-ons per server per
 * day; bamel's energy over cluster-autoscaler's and Karpenter's, met only at an equal or lower p99
 * wait; as information, bamel with {@code scaleDownThreshold} 0.30, the former default, each of
 * bamel's variants ({@link Comparison#bamelVariants()}: the trend, the hold-off, tighter
 * thresholds) and the energy floor over the oracle. At equal wait ({@link Frontier}, each family
 * swept over its documented knobs by {@link FrontierSweep}): bamel's least energy at a p99 at most
 * each rival's default p99 over that rival's energy, met below 1; as information, at 0 s, 60 s and
 * each rival's default p99, bamel's least energy over each rival family's least. Targets (issue
 * 34): energy at most 1.15 x the oracle, p99 extra wait at most 60 s, at most 6 power-ons per
 * server per day.
 */
public final class DecisionQualityBenchmark implements Benchmark {

  static final String NAME = "decision-quality";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<BenchResult> run(BenchContext context) {
    List<BenchResult> rows = new ArrayList<>();
    for (String days : System.getProperty("bench.decision.days", "7").split(",")) {
      int d = Integer.parseInt(days.trim());
      PodTrace trace = WorkloadGenerator.alibabaGpuV2023().generate(Duration.ofDays(d), 1);
      Fleet fleet = Fleet.sizedFor(trace);
      List<Supplier<Autoscaler>> policies = new ArrayList<>(Comparison.defaultPolicies());
      policies.addAll(Comparison.bamelVariants());
      Comparison c =
          Comparison.run(fleet, Workload.of(trace, fleet), Simulator.Settings.DEFAULTS, policies);
      rows.addAll(rows(c, d + "d"));
      rows.addAll(frontier(FrontierSweep.run(c, FrontierSweep.families(fleet)), d + "d"));
      rows.add(floor(c, d + "d"));
      rows.add(tuned(c, d + "d", 0.30));
    }
    return rows;
  }

  /**
   * Information: bamel with the pool's {@code scaleDownThreshold} at {@code threshold} instead of
   * the default, on the same workload and fleet.
   */
  static BenchResult tuned(Comparison c, String label, double threshold) {
    List<FleetPool> pools = new ArrayList<>();
    for (FleetPool p : c.fleet().pools()) {
      pools.add(p.withConfig(p.config().toBuilder().scaleDownThreshold(threshold).build()));
    }
    double oracle = c.result(Oracle.NAME).energyKWh();
    PolicyResult r =
        new Simulator(new Fleet(pools), c.workload(), c.settings())
            .run(new BamelAutoscaler("bamel"))
            .against(oracle);
    return new BenchResult(
        NAME,
        String.format(
            java.util.Locale.ROOT,
            "%s bamel, scaleDownThreshold %.2f (information): energy / oracle (p99 %.0f s, max %.0f"
                + " s, %.2f ons/server/day)",
            label,
            threshold,
            r.waitP99Seconds(),
            r.waitMaxSeconds(),
            r.powerOnsPerServerDay()),
        r.energyKWh(),
        oracle,
        "kWh",
        r.energyVsOracle(),
        "information",
        true);
  }

  /**
   * The frontier rows: for cluster-autoscaler and Karpenter, bamel's least energy at a p99 at most
   * the rival's defaults' over the rival's energy (met below 1); as information, at each bound,
   * bamel's least energy over each rival family's least (NaN where a family reaches no setting that
   * waits so little).
   */
  static List<BenchResult> frontier(Frontier f, String label) {
    List<BenchResult> rows = new ArrayList<>();
    for (String rival : List.of("cluster-autoscaler", "karpenter")) {
      PolicyResult r = f.results(rival).get(0);
      PolicyResult bamel = f.leastEnergyAt("bamel", r.waitP99Seconds()).orElse(null);
      double ratio = bamel == null ? Double.NaN : bamel.energyKWh() / r.energyKWh();
      rows.add(
          new BenchResult(
              NAME,
              String.format(
                  java.util.Locale.ROOT,
                  "%s bamel's least energy at p99 <= %s's %.0f s (%s, p99 %.0f s) vs %s",
                  label,
                  rival,
                  r.waitP99Seconds(),
                  bamel == null ? "none" : bamel.policy(),
                  bamel == null ? Double.NaN : bamel.waitP99Seconds(),
                  rival),
              bamel == null ? Double.NaN : bamel.energyKWh(),
              r.energyKWh(),
              "kWh",
              ratio,
              "< 1",
              ratio < 1));
    }
    for (Frontier.Bound b : f.bounds()) {
      PolicyResult bamel = f.leastEnergyAt("bamel", b.seconds()).orElse(null);
      for (String rival : f.families().keySet()) {
        if (rival.equals("bamel")) {
          continue;
        }
        PolicyResult r = f.leastEnergyAt(rival, b.seconds()).orElse(null);
        double ratio = bamel == null || r == null ? Double.NaN : bamel.energyKWh() / r.energyKWh();
        rows.add(
            new BenchResult(
                NAME,
                String.format(
                    java.util.Locale.ROOT,
                    "%s at p99 <= %.0f s (%s, information): least energy, bamel (%s) vs %s (%s)",
                    label,
                    b.seconds(),
                    b.label(),
                    bamel == null ? "none" : bamel.policy(),
                    rival,
                    r == null ? "none" : r.policy()),
                bamel == null ? Double.NaN : bamel.energyKWh(),
                r == null ? Double.NaN : r.energyKWh(),
                "kWh",
                ratio,
                "information",
                true));
      }
    }
    return rows;
  }

  /**
   * Information: the energy floor (no wait-free run, whatever its placement and even moving pods
   * freely, draws less) over the oracle's energy.
   */
  static BenchResult floor(Comparison c, String label) {
    double floor = EnergyFloor.kWh(c.fleet(), c.workload(), c.settings());
    double oracle = c.result(Oracle.NAME).energyKWh();
    return new BenchResult(
        NAME,
        label + " energy floor (information): floor / oracle",
        floor,
        oracle,
        "kWh",
        floor / oracle,
        "information",
        true);
  }

  static List<BenchResult> rows(Comparison c, String label) {
    List<BenchResult> rows = new ArrayList<>();
    double oracle = c.result(Oracle.NAME).energyKWh();
    for (PolicyResult r : c.results()) {
      if (r.policy().equals(Oracle.NAME)) {
        continue;
      }
      String measure =
          String.format(
              java.util.Locale.ROOT,
              "%s %s: energy / oracle (p99 %.0f s, max %.0f s, %.2f ons/server/day)",
              label,
              r.policy(),
              r.waitP99Seconds(),
              r.waitMaxSeconds(),
              r.powerOnsPerServerDay());
      rows.add(
          r.policy().equals("bamel")
              ? BenchResult.ratioAtMost(NAME, measure, r.energyKWh(), oracle, "kWh", 1.15)
              : new BenchResult(
                  NAME,
                  measure,
                  r.energyKWh(),
                  oracle,
                  "kWh",
                  r.energyKWh() / oracle,
                  r.policy().startsWith("bamel ") ? "variant (information)" : "rival",
                  true));
    }
    PolicyResult bamel = c.result("bamel");
    rows.add(
        new BenchResult(
            NAME,
            label + " bamel: p99 extra wait",
            bamel.waitP99Seconds(),
            60,
            "s",
            bamel.waitP99Seconds() / 60,
            "<= 60 s",
            bamel.waitP99Seconds() <= 60));
    rows.add(
        new BenchResult(
            NAME,
            label + " bamel: max extra wait",
            bamel.waitMaxSeconds(),
            c.result(Oracle.NAME).waitMaxSeconds(),
            "s",
            Double.NaN,
            "reported",
            true));
    rows.add(
        BenchResult.ratioAtMost(
            NAME,
            label + " bamel: power-ons / server / day",
            bamel.powerOnsPerServerDay(),
            6,
            "",
            1));
    for (String rival : List.of("cluster-autoscaler", "karpenter")) {
      PolicyResult r = c.result(rival);
      double ratio = bamel.energyKWh() / r.energyKWh();
      rows.add(
          new BenchResult(
              NAME,
              String.format(
                  java.util.Locale.ROOT,
                  "%s bamel vs %s: energy (p99 %.0f s vs %.0f s)",
                  label,
                  rival,
                  bamel.waitP99Seconds(),
                  r.waitP99Seconds()),
              bamel.energyKWh(),
              r.energyKWh(),
              "kWh",
              ratio,
              "< 1 at <= p99",
              ratio < 1 && bamel.waitP99Seconds() <= r.waitP99Seconds()));
    }
    return rows;
  }
}
