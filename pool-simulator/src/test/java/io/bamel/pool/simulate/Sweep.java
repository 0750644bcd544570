package io.bamel.pool.simulate;

import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PoolConfigBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * A by-hand tool (test scope, not a test): runs bamel with config variants on the generated
 * workloads and prints one line per variant. Arguments: the days ({@code 7,34}), then variants as
 * {@code name:key=value,...} with keys {@code up}, {@code down}, {@code unneeded}, {@code delay},
 * {@code cooldown}, {@code trend}, {@code lookahead} (durations in minutes), {@code on} and {@code
 * consolidate}; a variant named {@code rivals} runs the oracle's rivals instead.
 */
public final class Sweep {

  private Sweep() {}

  public static void main(String[] args) {
    GeneratedRun.forEach(
        args[0],
        "1",
        g -> {
          g.printHeader();
          for (int i = 1; i < args.length; i++) {
            List<Supplier<Autoscaler>> policies = new ArrayList<>();
            if (args[i].equals("rivals")) {
              policies.addAll(Comparison.defaultPolicies().subList(1, 5));
            } else {
              String[] parts = args[i].split(":", 2);
              UnaryOperator<PoolConfig> tune = tune(parts.length > 1 ? parts[1] : "");
              policies.add(() -> new BamelAutoscaler(parts[0], tune));
            }
            policies.forEach(p -> g.run(p.get()));
          }
        });
  }

  static UnaryOperator<PoolConfig> tune(String spec) {
    return config -> {
      PoolConfigBuilder b = config.toBuilder();
      for (String kv : spec.split(",")) {
        if (kv.isBlank()) {
          continue;
        }
        String[] p = kv.split("=", 2);
        switch (p[0]) {
          case "up" -> b.scaleUpThreshold(Double.parseDouble(p[1]));
          case "down" -> b.scaleDownThreshold(Double.parseDouble(p[1]));
          case "unneeded" -> b.scaleDownUnneededTime(minutes(p[1]));
          case "delay" -> b.delayAfterScaleUp(minutes(p[1]));
          case "cooldown" -> b.scaleUpCooldown(minutes(p[1]));
          case "trend" -> b.scaleUpTrendWindow(minutes(p[1]));
          case "lookahead" -> b.scaleUpLookahead(minutes(p[1]));
          case "on" -> b.scaleUpOn(p[1]);
          case "consolidate" -> b.consolidate(Boolean.parseBoolean(p[1]));
          default -> throw new IllegalArgumentException("unknown key " + p[0]);
        }
      }
      return b.build().validate();
    };
  }

  private static Duration minutes(String m) {
    return Duration.ofSeconds(Math.round(Double.parseDouble(m) * 60));
  }
}
