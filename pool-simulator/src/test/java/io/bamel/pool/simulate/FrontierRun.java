package io.bamel.pool.simulate;

import java.util.ArrayList;
import java.util.HashSet;
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
    Set<String> only = new HashSet<>(List.of(args).subList(Math.min(2, args.length), args.length));
    String names = System.getProperty("policies", "");
    Set<String> policies = names.isEmpty() ? Set.of() : Set.of(names.split(";"));
    GeneratedRun.forEach(
        args[0],
        args[1],
        g -> {
          Map<String, List<PolicyResult>> out = new LinkedHashMap<>();
          for (Map.Entry<String, List<Supplier<Autoscaler>>> e :
              FrontierSweep.families(g.fleet()).entrySet()) {
            if (!only.isEmpty() && !only.contains(e.getKey())) {
              continue;
            }
            List<PolicyResult> results = new ArrayList<>();
            for (Supplier<Autoscaler> p : e.getValue()) {
              Autoscaler a = p.get();
              if (policies.isEmpty() || policies.contains(a.name())) {
                results.add(g.run(a));
              }
            }
            if (!results.isEmpty()) {
              out.put(e.getKey(), results);
            }
          }
          System.out.printf(
              Locale.ROOT,
              "%dd seed %d oracle %.1f kWh%n",
              g.days(),
              g.seed(),
              g.oracle().energyKWh());
          System.out.println(new Frontier(g.oracle(), out).table());
        });
  }
}
