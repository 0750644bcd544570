package io.bamel.bench.power;

import io.bamel.bench.BenchContext;
import io.bamel.bench.BenchResult;
import io.bamel.bench.Benchmark;
import io.bamel.bench.Timer;
import io.bamel.power.BmcEndpoint;
import io.bamel.power.Deadline;
import io.bamel.power.PowerState;
import io.bamel.power.TlsSettings;
import io.bamel.power.credentials.CredentialStore;
import io.bamel.power.redfish.RedfishDriver;
import io.bamel.power.sim.SimSystemConfig;
import io.bamel.power.sim.SimulatedBmcFleet;
import io.bamel.power.sim.SimulatedSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Power-state reads of many simulated Redfish systems (1,000 by default), each answering after 100
 * ms, 64 at a time, over TLS with sessions: the wall time against the ideal {@code systems / 64 x
 * 100 ms}. Sessions and connections are set up in an untimed first pass, as in a controller that
 * has been running.
 */
public final class RedfishReadBenchmark implements Benchmark {

  private static final Duration LATENCY = Duration.ofMillis(100);

  @Override
  public String name() {
    return "power-redfish-reads";
  }

  @Override
  public List<BenchResult> run(BenchContext context) throws Exception {
    int systems = context.size("power.systems", 1000);
    int concurrency = Integer.getInteger("bench.power.concurrency", 64);
    Path dir = Files.createTempDirectory("bamel-bench-redfish");
    Path secret = Files.createDirectories(dir.resolve("bmc"));
    Files.writeString(secret.resolve("username"), "admin");
    Files.writeString(secret.resolve("password"), "bench-password");
    try (SimulatedBmcFleet fleet = SimulatedBmcFleet.start(true)) {
      List<SimulatedSystem> fleetSystems =
          fleet.addSystems(
              systems,
              "node-",
              SimSystemConfig.defaults().withCredentials("admin", "bench-password"));
      TlsSettings tls = TlsSettings.caBundle(fleet.writeCaBundle(dir.resolve("ca.pem")));
      List<BmcEndpoint> endpoints = new ArrayList<>();
      for (SimulatedSystem system : fleetSystems) {
        endpoints.add(new BmcEndpoint(fleet.systemUri(system.id()), "bmc", tls, Map.of()));
      }
      ExecutorService pool = Executors.newFixedThreadPool(concurrency);
      try (RedfishDriver driver = new RedfishDriver(new CredentialStore(dir))) {
        readAll(driver, endpoints, pool); // untimed: sessions, connections, JIT
        fleetSystems.forEach(s -> s.faults().latency(LATENCY));
        double wallMillis = Timer.medianMillis(3, () -> readAll(driver, endpoints, pool));
        double idealMillis = (double) systems / concurrency * LATENCY.toMillis();
        return List.of(
            BenchResult.ratioAtMost(
                name(),
                String.format(
                    java.util.Locale.ROOT,
                    "%,d systems x %d ms, concurrency %d (baseline: ideal)",
                    systems,
                    LATENCY.toMillis(),
                    concurrency),
                wallMillis,
                idealMillis,
                "ms",
                1.3));
      } finally {
        pool.shutdownNow();
      }
    }
  }

  private static void readAll(
      RedfishDriver driver, List<BmcEndpoint> endpoints, ExecutorService pool) throws Exception {
    List<Future<PowerState>> reads = new ArrayList<>();
    for (BmcEndpoint endpoint : endpoints) {
      reads.add(
          pool.submit(() -> driver.powerState(endpoint, Deadline.in(Duration.ofSeconds(30)))));
    }
    for (Future<PowerState> read : reads) {
      if (read.get() != PowerState.OFF) {
        throw new IllegalStateException("unexpected power state " + read.get());
      }
    }
  }
}
