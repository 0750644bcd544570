package io.bamel.pool.simulate;

import java.time.Duration;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Test scope, what the by-hand tools ({@link Sweep}, {@link FrontierRun}, {@link ForecastRun})
 * share: a generated workload of the published trace's shape, {@code days} long from {@code seed}
 * (the servers' boot times drawn from the same seed), its default fleet and the oracle's run on it;
 * and the one line each tool prints per policy run.
 *
 * @param days the workload's length
 * @param seed the seed of the workload and of the boot times
 * @param profile the generator's profile
 * @param fleet the default fleet for the workload
 * @param workload the workload
 * @param settings the simulator's settings
 * @param oracle the oracle's result
 */
record GeneratedRun(
    int days,
    long seed,
    WorkloadProfile profile,
    Fleet fleet,
    Workload workload,
    Simulator.Settings settings,
    PolicyResult oracle) {

  /** The workload of {@code days} from {@code seed}, with the oracle run on it. */
  static GeneratedRun of(int days, long seed) {
    WorkloadProfile profile = WorkloadProfile.alibabaGpuV2023();
    PodTrace trace = new WorkloadGenerator(profile).generate(Duration.ofDays(days), seed);
    Fleet fleet = Fleet.sizedFor(trace);
    Workload workload = Workload.of(trace, fleet);
    Simulator.Settings settings = Simulator.Settings.DEFAULTS.withSeed(seed);
    return new GeneratedRun(
        days, seed, profile, fleet, workload, settings, Oracle.run(fleet, workload, settings));
  }

  /**
   * {@code body} on each workload of the comma-separated {@code days} ({@code 7,34}) and {@code
   * seeds} ({@code 1,2,3}), days first, each built when its turn comes.
   */
  static void forEach(String days, String seeds, Consumer<GeneratedRun> body) {
    for (String d : days.split(",")) {
      for (String s : seeds.split(",")) {
        body.accept(of(Integer.parseInt(d), Long.parseLong(s)));
      }
    }
  }

  /** The energy floor of the workload ({@link EnergyFloor}). */
  double floorKWh() {
    return EnergyFloor.kWh(fleet, workload, settings);
  }

  /** The first pool's name (the CPU pool of a generated workload's fleet). */
  String pool() {
    return fleet.pools().get(0).name();
  }

  /** Runs {@code autoscaler}, prints its line, and returns its result against the oracle. */
  PolicyResult run(Autoscaler autoscaler) {
    long t = System.nanoTime();
    PolicyResult r =
        new Simulator(fleet, workload, settings).run(autoscaler).against(oracle.energyKWh());
    System.out.printf(
        Locale.ROOT,
        "%dd seed %d %-58s %8.1f kWh %6.3f  p99 %4.0f s  max %5.0f s  %5.2f ons/srv/d"
            + "  %5d evict  [%.0f s]%n",
        days,
        seed,
        r.policy(),
        r.energyKWh(),
        r.energyVsOracle(),
        r.waitP99Seconds(),
        r.waitMaxSeconds(),
        r.powerOnsPerServerDay(),
        r.evictions(),
        (System.nanoTime() - t) / 1e9);
    return r;
  }

  /** Prints the oracle's energy, the floor's, and the fleet's first pool. */
  void printHeader() {
    double floor = floorKWh();
    FleetPool p = fleet.pools().get(0);
    System.out.printf(
        Locale.ROOT,
        "%dd seed %d oracle %.1f kWh, floor %.1f (%.3f), %d servers of %.0f cores%n",
        days,
        seed,
        oracle.energyKWh(),
        floor,
        floor / oracle.energyKWh(),
        p.servers(),
        p.cores());
  }
}
