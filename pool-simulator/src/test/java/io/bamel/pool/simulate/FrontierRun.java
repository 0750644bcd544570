package io.bamel.pool.simulate;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A by-hand tool (test scope, not a test): the frontier of each policy family ({@link
 * FrontierSweep}) on the generated workloads. Arguments: the days ({@code 7,34}), the seeds ({@code
 * 1,2,3}), then optionally the families to run (default all); {@code -Dpolicies=a;b} runs only the
 * settings of those names. Prints each run as it ends, then each workload's frontier table.
 */
public final class FrontierRun {

  private FrontierRun() {}

  public static void main(String[] args) {
    Set<String> only =
        new java.util.HashSet<>(List.of(args).subList(Math.min(2, args.length), args.length));
    String names = System.getProperty("policies", "");
    Set<String> policies = names.isEmpty() ? Set.of() : Set.of(names.split(";"));
    for (String days : args[0].split(",")) {
      for (String seed : args[1].split(",")) {
        int d = Integer.parseInt(days);
        long s = Long.parseLong(seed);
        PodTrace trace = WorkloadGenerator.alibabaGpuV2023().generate(Duration.ofDays(d), s);
        Fleet fleet = Fleet.sizedFor(trace);
        Workload workload = Workload.of(trace, fleet);
        Simulator.Settings settings = Simulator.Settings.DEFAULTS.withSeed(s);
        PolicyResult oracle = Oracle.run(fleet, workload, settings);
        Simulator sim = new Simulator(fleet, workload, settings);
        Map<String, List<PolicyResult>> out = new LinkedHashMap<>();
        for (Map.Entry<String, List<Supplier<Autoscaler>>> e :
            FrontierSweep.families(fleet).entrySet()) {
          if (args.length > 2 && !only.contains(e.getKey())) {
            continue;
          }
          List<PolicyResult> results = new java.util.ArrayList<>();
          for (Supplier<Autoscaler> p : e.getValue()) {
            Autoscaler a = p.get();
            if (!policies.isEmpty() && !policies.contains(a.name())) {
              continue;
            }
            long t = System.nanoTime();
            PolicyResult r = sim.run(a).against(oracle.energyKWh());
            results.add(r);
            System.out.printf(
                Locale.ROOT,
                "%dd seed %d %-58s %8.1f kWh %6.3f  p99 %4.0f s  max %5.0f s  %5.2f ons/srv/d"
                    + "  %5d evict  [%.0f s]%n",
                d,
                s,
                r.policy(),
                r.energyKWh(),
                r.energyVsOracle(),
                r.waitP99Seconds(),
                r.waitMaxSeconds(),
                r.powerOnsPerServerDay(),
                r.evictions(),
                (System.nanoTime() - t) / 1e9);
          }
          if (!results.isEmpty()) {
            out.put(e.getKey(), results);
          }
        }
        System.out.printf(Locale.ROOT, "%dd seed %d oracle %.1f kWh%n", d, s, oracle.energyKWh());
        System.out.println(new Frontier(oracle, out).table());
      }
    }
  }
}
