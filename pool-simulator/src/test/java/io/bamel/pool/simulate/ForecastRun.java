package io.bamel.pool.simulate;

/**
 * A by-hand tool (test scope, not a test): bamel with an {@link ArrivalReserve} on the generated
 * workloads, for the upper bound of a forecast (docs/pool-controller.md, "A forecast's upper
 * bound"). Arguments: the days ({@code 7,34}), the seeds ({@code 1,2,3}), then variants as {@code
 * name|forecast|config}: the forecast {@code rate:q=0.9,m=1,h=480}, {@code hourly:...}, {@code
 * exact:m=1,h=480} or {@code none}, each optionally with {@code c=16} (count only whole chunks of
 * 16 free cores per server) ({@link ArrivalForecast}; {@code h} in seconds), the config as {@link
 * Sweep}'s. Prints one line per run.
 */
public final class ForecastRun {

  private ForecastRun() {}

  public static void main(String[] args) {
    GeneratedRun.forEach(
        args[0],
        args[1],
        g -> {
          g.printHeader();
          for (int i = 2; i < args.length; i++) {
            String[] parts = args[i].split("\\|", -1);
            BamelAutoscaler bamel = new BamelAutoscaler(parts[0], Sweep.tune(parts[2]));
            ArrivalForecast forecast = forecast(parts[1], g.profile(), g.workload(), g.pool());
            g.run(
                forecast == null
                    ? bamel
                    : new ArrivalReserve(parts[0], bamel, g.pool(), forecast, chunk(parts[1])));
          }
        });
  }

  /** The {@code c=} of a forecast spec: whole chunks of that many free cores count (0: all). */
  private static double chunk(String spec) {
    for (String kv : spec.replaceFirst("^[a-z]+:?", "").split(",")) {
      if (kv.startsWith("c=")) {
        return Double.parseDouble(kv.substring(2));
      }
    }
    return 0;
  }

  private static ArrivalForecast forecast(
      String spec, WorkloadProfile profile, Workload workload, String pool) {
    String[] kind = spec.split(":", 2);
    if (kind[0].equals("none")) {
      return null;
    }
    double q = 0.9;
    double m = 1;
    long h = BootTime.DEFAULT.maxSeconds();
    for (String kv : (kind.length > 1 ? kind[1] : "").split(",")) {
      if (kv.isBlank()) {
        continue;
      }
      String[] p = kv.split("=", 2);
      switch (p[0]) {
        case "q" -> q = Double.parseDouble(p[1]);
        case "m" -> m = Double.parseDouble(p[1]);
        case "h" -> h = Long.parseLong(p[1]);
        case "c" -> {} // the reserve's chunk: chunk(spec)
        default -> throw new IllegalArgumentException("unknown key " + p[0]);
      }
    }
    return switch (kind[0]) {
      case "rate" -> ArrivalForecast.rate(profile, q, m, h);
      case "hourly" -> ArrivalForecast.hourly(profile, workload, pool, q, m, h);
      case "exact" -> ArrivalForecast.exact(workload, pool, m, h);
      default -> throw new IllegalArgumentException("unknown forecast " + kind[0]);
    };
  }
}
