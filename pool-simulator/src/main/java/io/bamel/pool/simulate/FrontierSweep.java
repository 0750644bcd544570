package io.bamel.pool.simulate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The sweep behind a {@link Frontier}: each policy family over the knobs its own documentation
 * gives, its defaults first (docs/pool-controller.md, "At equal wait").
 *
 * <ul>
 *   <li><b>bamel</b>: {@code scaleUpThreshold}/{@code scaleDownThreshold} (its headroom), {@code
 *       consolidate}, the trend, {@code delayAfterScaleUp}; and the rivals' placeholders, 2 and 4,
 *       beside the config that makes Karpenter's decisions.
 *   <li><b>cluster-autoscaler</b>: {@code --scale-down-utilization-threshold}, {@code
 *       --scale-down-unneeded-time}, and over-provisioning (its FAQ, "How can I configure
 *       overprovisioning with Cluster Autoscaler?": low-priority pause pods, {@link
 *       Overprovisioning}) of 1 to 4 placeholders of {@value #PLACEHOLDER_CORES} cores, at the
 *       default threshold and at 0.7.
 *   <li><b>karpenter</b>: {@code consolidateAfter} (its disruption docs), and the same placeholders
 *       (Kubernetes' "Overprovision Node Capacity For A Cluster" is for any node autoscaler).
 *   <li><b>kproximate</b>: {@code kpLoadHeadroom} (0.2 is its minimum) and {@code pollInterval} (10
 *       s is its minimum): both can only keep more on, or react later.
 * </ul>
 *
 * A placeholder of {@value #PLACEHOLDER_CORES} cores is about the generated workload's 90th
 * percentile pod (16.4 cores); it asks the same share of a server's memory.
 */
public final class FrontierSweep {

  /** The cores of one over-provisioning placeholder. */
  public static final double PLACEHOLDER_CORES = 16;

  private FrontierSweep() {}

  /** Each family's settings, its defaults first. */
  public static Map<String, List<Supplier<Autoscaler>>> families(Fleet fleet) {
    Map<String, List<Supplier<Autoscaler>>> out = new LinkedHashMap<>();
    List<Supplier<Autoscaler>> bamel = new ArrayList<>(bamel());
    bamel.addAll(bamelWithPlaceholders(fleet));
    out.put("bamel", bamel);
    out.put("cluster-autoscaler", clusterAutoscaler(fleet));
    out.put("karpenter", karpenter(fleet));
    out.put("kproximate", kproximate());
    return out;
  }

  /** bamel's settings: the defaults, then less headroom, with consolidation and the trend. */
  static List<Supplier<Autoscaler>> bamel() {
    Duration trend = Comparison.VARIANT_TREND_WINDOW;
    return List.of(
        BamelAutoscaler::new,
        Comparison.variant("bamel consolidate", b -> b.consolidate(true)),
        Comparison.variant(
            "bamel 0.85/0.75 consolidate",
            b -> b.scaleUpThreshold(0.85).scaleDownThreshold(0.75).consolidate(true)),
        Comparison.variant(
            "bamel 0.88/0.78 consolidate +trend",
            b ->
                b.scaleUpThreshold(0.88)
                    .scaleDownThreshold(0.78)
                    .scaleUpTrendWindow(trend)
                    .consolidate(true)),
        Comparison.variant(
            "bamel 0.90/0.80 +trend",
            b -> b.scaleUpThreshold(0.90).scaleDownThreshold(0.80).scaleUpTrendWindow(trend)),
        Comparison.variant(
            "bamel 0.90/0.80 consolidate +trend",
            b ->
                b.scaleUpThreshold(0.90)
                    .scaleDownThreshold(0.80)
                    .scaleUpTrendWindow(trend)
                    .consolidate(true)),
        Comparison.variant(
            "bamel 0.95/0.85 consolidate +trend",
            b ->
                b.scaleUpThreshold(0.95)
                    .scaleDownThreshold(0.85)
                    .scaleUpTrendWindow(trend)
                    .consolidate(true)),
        Comparison.variant(
            "bamel 0.97/0.87 consolidate +trend",
            b ->
                b.scaleUpThreshold(0.97)
                    .scaleDownThreshold(0.87)
                    .scaleUpTrendWindow(trend)
                    .consolidate(true)),
        Comparison.variant(
            "bamel 1.00/0.90 consolidate",
            b -> b.scaleUpThreshold(1.00).scaleDownThreshold(0.90).consolidate(true)),
        Comparison.variant(
            "bamel 1.00/0.90 consolidate, no hold-off",
            b ->
                b.scaleUpThreshold(1.00)
                    .scaleDownThreshold(0.90)
                    .consolidate(true)
                    .delayAfterScaleUp(Duration.ZERO)));
  }

  /**
   * bamel with the same over-provisioning placeholders as the rivals (a cluster pattern, not an
   * autoscaler's): at 1.00/0.90 with consolidation and no hold-off, the config that makes
   * Karpenter's decisions.
   */
  static List<Supplier<Autoscaler>> bamelWithPlaceholders(Fleet fleet) {
    List<Supplier<Autoscaler>> out = new ArrayList<>();
    for (int replicas : new int[] {2, 4}) {
      Supplier<Autoscaler> bamel =
          Comparison.variant(
              "",
              b ->
                  b.scaleUpThreshold(1.00)
                      .scaleDownThreshold(0.90)
                      .consolidate(true)
                      .delayAfterScaleUp(Duration.ZERO));
      String name = name("bamel 1.00/0.90 consolidate, no hold-off", "", replicas);
      Overprovisioning p = Overprovisioning.of(fleet, replicas, PLACEHOLDER_CORES);
      out.add(() -> new Variant(name, bamel.get(), p));
    }
    return out;
  }

  /** cluster-autoscaler: its defaults, each flag moved alone, and over-provisioning. */
  static List<Supplier<Autoscaler>> clusterAutoscaler(Fleet fleet) {
    ClusterAutoscalerRules.Settings d = ClusterAutoscalerRules.Settings.DEFAULTS;
    List<Supplier<Autoscaler>> out = new ArrayList<>();
    out.add(ClusterAutoscalerRules::new);
    for (double threshold : new double[] {0.3, 0.7, 0.9}) {
      ClusterAutoscalerRules.Settings s =
          new ClusterAutoscalerRules.Settings(
              threshold, d.unneededTime(), d.delayAfterAdd(), d.maxEmptyBulkDelete());
      out.add(ca(String.format(Locale.ROOT, "threshold %.1f", threshold), s, 0, fleet));
    }
    for (int minutes : new int[] {2, 5, 20}) {
      ClusterAutoscalerRules.Settings s =
          new ClusterAutoscalerRules.Settings(
              d.utilizationThreshold(),
              Duration.ofMinutes(minutes),
              d.delayAfterAdd(),
              d.maxEmptyBulkDelete());
      out.add(ca("unneeded " + minutes + "m", s, 0, fleet));
    }
    ClusterAutoscalerRules.Settings tight =
        new ClusterAutoscalerRules.Settings(
            0.9, Duration.ofMinutes(2), Duration.ofMinutes(2), d.maxEmptyBulkDelete());
    out.add(ca("threshold 0.9, unneeded 2m, delay-after-add 2m", tight, 0, fleet));
    ClusterAutoscalerRules.Settings seven =
        new ClusterAutoscalerRules.Settings(
            0.7, d.unneededTime(), d.delayAfterAdd(), d.maxEmptyBulkDelete());
    for (int replicas : new int[] {1, 2, 3, 4}) {
      out.add(ca("", d, replicas, fleet));
      out.add(ca("threshold 0.7", seven, replicas, fleet));
    }
    out.add(ca("threshold 0.9, unneeded 2m, delay-after-add 2m", tight, 2, fleet));
    return out;
  }

  private static Supplier<Autoscaler> ca(
      String change, ClusterAutoscalerRules.Settings s, int placeholders, Fleet fleet) {
    return withPlaceholders(
        "cluster-autoscaler", change, () -> new ClusterAutoscalerRules(s), placeholders, fleet);
  }

  /** A rival's rules, named by its family and change, beside {@code placeholders} placeholders. */
  private static Supplier<Autoscaler> withPlaceholders(
      String family, String change, Supplier<Autoscaler> rules, int placeholders, Fleet fleet) {
    String name = name(family, change, placeholders);
    return () ->
        new Variant(name, rules.get(), Overprovisioning.of(fleet, placeholders, PLACEHOLDER_CORES));
  }

  /** Karpenter: its defaults, {@code consolidateAfter}, and over-provisioning. */
  static List<Supplier<Autoscaler>> karpenter(Fleet fleet) {
    KarpenterConsolidation.Settings d = KarpenterConsolidation.Settings.DEFAULTS;
    List<Supplier<Autoscaler>> out = new ArrayList<>();
    out.add(KarpenterConsolidation::new);
    for (Duration after :
        List.of(
            Duration.ofSeconds(30),
            Duration.ofMinutes(1),
            Duration.ofMinutes(5),
            Duration.ofMinutes(15),
            Duration.ofHours(1))) {
      out.add(
          karpenter(
              "consolidateAfter " + human(after),
              new KarpenterConsolidation.Settings(after, d.budget()),
              0,
              fleet));
    }
    for (int replicas : new int[] {1, 2, 3, 4}) {
      out.add(karpenter("", d, replicas, fleet));
    }
    return out;
  }

  private static Supplier<Autoscaler> karpenter(
      String change, KarpenterConsolidation.Settings s, int placeholders, Fleet fleet) {
    return withPlaceholders(
        "karpenter", change, () -> new KarpenterConsolidation(s), placeholders, fleet);
  }

  /** kproximate: its defaults, more load headroom, a longer poll. */
  static List<Supplier<Autoscaler>> kproximate() {
    KproximateRules.Settings d = KproximateRules.Settings.DEFAULTS;
    return List.of(
        KproximateRules::new,
        () ->
            new Variant(
                "kproximate kpLoadHeadroom 0.3",
                new KproximateRules(
                    new KproximateRules.Settings(0.3, d.emptyGrace(), d.pollInterval())),
                Overprovisioning.NONE),
        () ->
            new Variant(
                "kproximate pollInterval 60s",
                new KproximateRules(
                    new KproximateRules.Settings(
                        d.loadHeadroom(), d.emptyGrace(), Duration.ofSeconds(60))),
                Overprovisioning.NONE));
  }

  private static String name(String family, String change, int placeholders) {
    StringBuilder n = new StringBuilder(family);
    if (!change.isEmpty()) {
      n.append(' ').append(change);
    }
    if (placeholders > 0) {
      n.append(
          String.format(
              Locale.ROOT, " +%d x %.0f-core placeholders", placeholders, PLACEHOLDER_CORES));
    }
    return n.toString();
  }

  private static String human(Duration d) {
    long s = d.toSeconds();
    return s % 3600 == 0 ? s / 3600 + "h" : s % 60 == 0 ? s / 60 + "m" : s + "s";
  }

  /** Runs every family's settings on {@code workload}, with the oracle once. */
  public static Frontier run(
      Fleet fleet,
      Workload workload,
      Simulator.Settings settings,
      Map<String, List<Supplier<Autoscaler>>> families) {
    PolicyResult oracle = Oracle.run(fleet, workload, settings);
    return run(new Simulator(fleet, workload, settings), oracle, List.of(), families);
  }

  /**
   * Runs every family's settings on the comparison's workload, reusing its results of the policies
   * of the same name (the defaults, the variants it ran).
   */
  public static Frontier run(Comparison c, Map<String, List<Supplier<Autoscaler>>> families) {
    return run(
        new Simulator(c.fleet(), c.workload(), c.settings()),
        c.result(Oracle.NAME),
        c.results(),
        families);
  }

  private static Frontier run(
      Simulator sim,
      PolicyResult oracle,
      List<PolicyResult> known,
      Map<String, List<Supplier<Autoscaler>>> families) {
    Map<String, List<PolicyResult>> out = new LinkedHashMap<>();
    families.forEach(
        (family, policies) -> {
          List<PolicyResult> results = new ArrayList<>();
          for (Supplier<Autoscaler> p : policies) {
            Autoscaler a = p.get();
            Optional<PolicyResult> done =
                known.stream().filter(r -> r.policy().equals(a.name())).findFirst();
            results.add(done.orElseGet(() -> sim.run(a).against(oracle.energyKWh())));
          }
          out.put(family, results);
        });
    return new Frontier(oracle, out);
  }
}
