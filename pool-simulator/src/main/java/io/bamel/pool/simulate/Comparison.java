package io.bamel.pool.simulate;

import io.bamel.inventory.model.PoolConfigBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Every policy on one workload and fleet: the oracle first, then each autoscaler, each result's
 * energy set against the oracle's.
 *
 * @param fleet the fleet
 * @param workload the workload
 * @param settings the simulator's settings
 * @param results the oracle's result, then each autoscaler's, in the order given
 */
public record Comparison(
    Fleet fleet, Workload workload, Simulator.Settings settings, List<PolicyResult> results) {

  /** Copies the list. */
  public Comparison {
    results = List.copyOf(results);
  }

  /** The autoscalers compared by default: bamel and its four rivals (the oracle always runs). */
  public static List<Supplier<Autoscaler>> defaultPolicies() {
    return List.of(
        BamelAutoscaler::new,
        AlwaysOn::new,
        ClusterAutoscalerRules::new,
        KarpenterConsolidation::new,
        KproximateRules::new);
  }

  /** The trend window of the variants with the trend on. */
  public static final Duration VARIANT_TREND_WINDOW = Duration.ofMinutes(20);

  /**
   * bamel's decision features beside its defaults, one at a time: each a {@link BamelAutoscaler}
   * whose pools decide with the fleet's config changed as its name says ({@code +trend}: a {@code
   * scaleUpTrendWindow} of 20 minutes; {@code 0.85/0.75}: those scale-up and scale-down thresholds;
   * {@code hold-off 20m}: {@code delayAfterScaleUp} 20 minutes; {@code consolidate}: {@code
   * consolidate} on).
   */
  public static List<Supplier<Autoscaler>> bamelVariants() {
    return List.of(
        variant("bamel +trend", b -> b.scaleUpTrendWindow(VARIANT_TREND_WINDOW)),
        variant("bamel hold-off 20m", b -> b.delayAfterScaleUp(Duration.ofMinutes(20))),
        variant("bamel 0.85/0.75", b -> b.scaleUpThreshold(0.85).scaleDownThreshold(0.75)),
        variant(
            "bamel 0.85/0.75 +trend",
            b ->
                b.scaleUpThreshold(0.85)
                    .scaleDownThreshold(0.75)
                    .scaleUpTrendWindow(VARIANT_TREND_WINDOW)),
        variant("bamel 0.90/0.80", b -> b.scaleUpThreshold(0.90).scaleDownThreshold(0.80)),
        variant(
            "bamel 0.90/0.80 +trend",
            b ->
                b.scaleUpThreshold(0.90)
                    .scaleDownThreshold(0.80)
                    .scaleUpTrendWindow(VARIANT_TREND_WINDOW)),
        variant(
            "bamel 0.95/0.85 +trend",
            b ->
                b.scaleUpThreshold(0.95)
                    .scaleDownThreshold(0.85)
                    .scaleUpTrendWindow(VARIANT_TREND_WINDOW)),
        variant("bamel consolidate", b -> b.consolidate(true)),
        variant(
            "bamel 0.85/0.75 consolidate",
            b -> b.scaleUpThreshold(0.85).scaleDownThreshold(0.75).consolidate(true)),
        variant(
            "bamel 0.90/0.80 consolidate +trend",
            b ->
                b.scaleUpThreshold(0.90)
                    .scaleDownThreshold(0.80)
                    .scaleUpTrendWindow(VARIANT_TREND_WINDOW)
                    .consolidate(true)),
        variant(
            "bamel 0.95/0.85 consolidate +trend",
            b ->
                b.scaleUpThreshold(0.95)
                    .scaleDownThreshold(0.85)
                    .scaleUpTrendWindow(VARIANT_TREND_WINDOW)
                    .consolidate(true)),
        variant(
            "bamel 0.97/0.87 consolidate +trend",
            b ->
                b.scaleUpThreshold(0.97)
                    .scaleDownThreshold(0.87)
                    .scaleUpTrendWindow(VARIANT_TREND_WINDOW)
                    .consolidate(true)));
  }

  static Supplier<Autoscaler> variant(String name, UnaryOperator<PoolConfigBuilder> change) {
    return () -> new BamelAutoscaler(name, c -> change.apply(c.toBuilder()).build().validate());
  }

  /** Runs the oracle and each policy (a fresh instance each). */
  public static Comparison run(
      Fleet fleet,
      Workload workload,
      Simulator.Settings settings,
      List<Supplier<Autoscaler>> policies) {
    PolicyResult oracle = Oracle.run(fleet, workload, settings);
    double base = oracle.energyKWh();
    List<PolicyResult> results = new ArrayList<>();
    results.add(oracle.against(base));
    Simulator sim = new Simulator(fleet, workload, settings);
    for (Supplier<Autoscaler> p : policies) {
      results.add(sim.run(p.get()).against(base));
    }
    return new Comparison(fleet, workload, settings, results);
  }

  /** The result of the policy named {@code policy}. */
  public PolicyResult result(String policy) {
    return results.stream()
        .filter(r -> r.policy().equals(policy))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no policy " + policy));
  }

  /** The results as a text table, one policy a line. */
  public String table() {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%-34s %10s %8s %8s %8s %8s %10s %11s%n",
            "POLICY",
            "ENERGY kWh",
            "/ORACLE",
            "WAIT p50",
            "p99 s",
            "max s",
            "ONS/SRV/D",
            "UNPLACEABLE"));
    for (PolicyResult r : results) {
      out.append(
          String.format(
              Locale.ROOT,
              "%-34s %10.1f %8.3f %8.0f %8.0f %8.0f %10.2f %11d%n",
              r.policy(),
              r.energyKWh(),
              r.energyVsOracle(),
              r.waitP50Seconds(),
              r.waitP99Seconds(),
              r.waitMaxSeconds(),
              r.powerOnsPerServerDay(),
              r.unplaceablePods()));
    }
    return out.toString();
  }
}
