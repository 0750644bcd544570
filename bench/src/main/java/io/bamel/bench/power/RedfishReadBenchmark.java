package io.bamel.bench.power;

import io.bamel.bench.BenchContext;
import io.bamel.bench.BenchResult;
import io.bamel.bench.Benchmark;
import io.bamel.bench.JitWarmUp;
import io.bamel.bench.PowerReadTally;
import io.bamel.bench.Timer;
import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.Deadline;
import io.bamel.power.Drivers;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerDriverRegistry;
import io.bamel.power.PowerMetrics;
import io.bamel.power.PowerOperation;
import io.bamel.power.TlsSettings;
import io.bamel.power.credentials.CredentialStore;
import io.bamel.power.redfish.RedfishDriver;
import io.bamel.power.sim.SimConnection;
import io.bamel.power.sim.SimOperation;
import io.bamel.power.sim.SimSystemConfig;
import io.bamel.power.sim.SimulatedBmcFleet;
import io.bamel.power.sim.SimulatedSystem;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Power-state reads of many simulated Redfish systems (1,000 by default), each answering after 100
 * ms, 64 at a time, over TLS with sessions, as the node controller makes them: through the {@link
 * PowerDriverRegistry} of {@link Drivers#standard} (so every read is counted and timed by the
 * metrics wrapper) and with each node's address the BMC's service root, from which the driver finds
 * the ComputerSystem. Each simulated BMC listens on a loopback port of its own, as real BMCs have
 * addresses of their own ({@link SimulatedBmcFleet#startPortPerSystem}). Discovery (service root,
 * Systems collection), the session logins and the TLS connections happen in an untimed first pass
 * without latency, then untimed passes with latency until the JIT is steady ({@link JitWarmUp}), as
 * in a controller that has been running; the timed passes are then one {@code GET} of the System
 * per read. Reported: the median wall time of 3 passes against the ideal {@code systems / 64 x 100
 * ms}, and as information the bench JVM's CPU time per timed read (simulated BMCs included) against
 * the cores' time per read at the ideal rate, with the new connections per read and the load
 * average: figures that, unlike the wall time, do not depend on what else runs on the machine.
 * After the passes the benchmark checks that no system was discovered or logged in to twice and
 * that the metrics counted every read, so the figure measures what it says.
 *
 * <p>A second row runs the same with BMCs that close a connection idle for 200 ms (as many BMC web
 * servers do, with shorter timeouts still): a pass takes longer than that, so every timed read
 * needs a new TLS connection, never failing. Its target is the same ratio to the same ideal.
 */
public final class RedfishReadBenchmark implements Benchmark {

  private static final Duration LATENCY = Duration.ofMillis(100);

  /** Each timed read's deadline. */
  private static final Duration READ_DEADLINE = Duration.ofSeconds(30);

  /**
   * The untimed passes' deadline: on a busy machine a thousand first TLS handshakes and logins can
   * take longer than a read may.
   */
  private static final Duration UNTIMED_DEADLINE = Duration.ofMinutes(10);

  private static final java.lang.management.OperatingSystemMXBean LOAD =
      java.lang.management.ManagementFactory.getOperatingSystemMXBean();

  @Override
  public String name() {
    return "power-redfish-reads";
  }

  /**
   * The most untimed passes with latency before the timed ones (each about 2 s); fewer when the JIT
   * is steady sooner ({@link JitWarmUp}).
   */
  private static final int MAX_WARM_UP_PASSES = 30;

  /** How long the BMCs of the second row keep an idle connection before closing it. */
  private static final Duration IDLE_CLOSE = Duration.ofMillis(200);

  @Override
  public List<BenchResult> run(BenchContext context) throws Exception {
    int systems = context.size("power.systems", 1000);
    int concurrency = Integer.getInteger("bench.power.concurrency", 64);
    List<BenchResult> rows = new ArrayList<>();
    int maxWarmUpPasses = context.quick() ? 1 : MAX_WARM_UP_PASSES;
    // -Dbench.power.rows=keep-alive or =idle-close runs one of the two rows
    String only = System.getProperty("bench.power.rows", "");
    if (!only.equals("idle-close")) {
      rows.addAll(measure(systems, concurrency, SimConnection.DEFAULT, "", maxWarmUpPasses));
    }
    if (!only.equals("keep-alive")) {
      rows.addAll(
          measure(
              systems,
              concurrency,
              SimConnection.keepAlive(IDLE_CLOSE),
              ", BMCs close idle connections after " + IDLE_CLOSE.toMillis() + " ms",
              maxWarmUpPasses));
    }
    return rows;
  }

  /**
   * One row: the fleet's BMCs treat connections as {@code connection} says ({@code label} names it
   * in the row). With an idle close shorter than a pass, every timed read finds its pooled
   * connection closed by the BMC, so it measures stale-connection detection and a fresh TLS
   * connection per read.
   */
  private List<BenchResult> measure(
      int systems, int concurrency, SimConnection connection, String label, int maxWarmUpPasses)
      throws Exception {
    Path dir = Files.createTempDirectory("bamel-bench-redfish");
    Path secret = Files.createDirectories(dir.resolve("bmc"));
    Files.writeString(secret.resolve("username"), "admin");
    Files.writeString(secret.resolve("password"), "bench-password");
    // each BMC on a port of its own, as real BMCs have addresses of their own: connections and TLS
    // sessions are then kept per BMC, not shared by a thousand systems behind one port
    // (-Dbench.power.onePort=true: every system behind one port, as before 2026-11-26, to compare)
    try (SimulatedBmcFleet fleet =
        Boolean.getBoolean("bench.power.onePort")
            ? SimulatedBmcFleet.start(true)
            : SimulatedBmcFleet.startPortPerSystem(true)) {
      List<SimulatedSystem> fleetSystems =
          fleet.addSystems(
              systems,
              "node-",
              SimSystemConfig.defaults()
                  .withCredentials("admin", "bench-password")
                  .withConnection(connection));
      TlsSettings tls = TlsSettings.caBundle(fleet.writeCaBundle(dir.resolve("ca.pem")));
      List<BmcEndpoint> endpoints = new ArrayList<>();
      for (SimulatedSystem system : fleetSystems) {
        // the service root's address, as in a node's mgmtAddress: the driver discovers the System
        endpoints.add(new BmcEndpoint(fleet.address(system.id()), "bmc", tls, Map.of()));
      }
      ExecutorService pool =
          Executors.newFixedThreadPool(
              concurrency, Thread.ofPlatform().name(ThreadCpu.CALLER_PREFIX, 0).factory());
      AtomicLong reads = new AtomicLong();
      PowerReadTally tally = new PowerReadTally();
      try (PowerDriverRegistry registry =
          Drivers.standard(new CredentialStore(dir), new PrometheusRegistry())) {
        PowerDriver driver = registry.driver(RedfishDriver.INTERFACE);
        // untimed: discovery, sessions, connections, JIT; not timed, so its deadline is generous
        readAll(driver, endpoints, pool, reads, tally, UNTIMED_DEADLINE);
        fleetSystems.forEach(s -> s.faults().latency(LATENCY));
        // untimed with latency, until the JIT is steady: a BMC closing idle connections is met
        // (and its idle timeout learnt) in the first of these passes, and HotSpot compiles the
        // TLS stack's paths, as in a controller that has been running (after two passes it still
        // took a quarter of the bench JVM's CPU through the timed passes on two cores)
        JitWarmUp.WarmUpReport warmUp =
            JitWarmUp.run(
                List.of(() -> readAll(driver, endpoints, pool, reads, tally, UNTIMED_DEADLINE)),
                maxWarmUpPasses);
        System.out.printf("%s%s: warm-up %s%n", name(), label, warmUp);
        long compileMillisBefore = JitWarmUp.compilationMillis();
        long readsBefore = reads.get();
        long connectionsBefore = fleet.connectionsAccepted();
        long fullHandshakesBefore = fleet.fullHandshakes();
        ThreadCpu threadsBefore = ThreadCpu.snapshot();
        long cpuBefore = processCpuNanos();
        double loadBefore = LOAD.getSystemLoadAverage();
        double wallMillis =
            Timer.medianMillis(
                3, () -> readAll(driver, endpoints, pool, reads, tally, READ_DEADLINE));
        long timedReads = reads.get() - readsBefore;
        double compilePerRead =
            (double) (JitWarmUp.compilationMillis() - compileMillisBefore) / timedReads;
        double cpuPerRead = (processCpuNanos() - cpuBefore) / 1e6 / timedReads;
        Map<ThreadCpu.Role, Long> byRole = threadsBefore.since();
        double driverCpuPerRead = byRole.get(ThreadCpu.Role.DRIVER) / 1e6 / timedReads;
        double simulatorCpuPerRead = byRole.get(ThreadCpu.Role.SIMULATOR) / 1e6 / timedReads;
        double connectionsPerRead =
            (double) (fleet.connectionsAccepted() - connectionsBefore) / timedReads;
        double fullHandshakesPerRead =
            (double) (fleet.fullHandshakes() - fullHandshakesBefore) / timedReads;
        check(fleetSystems, registry, reads.get());
        double idealMillis = (double) systems / concurrency * LATENCY.toMillis();
        String measure =
            String.format(
                java.util.Locale.ROOT,
                "%,d systems x %d ms, concurrency %d, registry + discovery%s",
                systems,
                LATENCY.toMillis(),
                concurrency,
                label);
        int cores = Runtime.getRuntime().availableProcessors();
        double budget = cores * (double) LATENCY.toMillis() / concurrency;
        return List.of(
            BenchResult.ratioAtMost(
                name(), measure + " (baseline: ideal)", wallMillis, idealMillis, "ms", 1.3),
            new BenchResult(
                name(),
                String.format(
                    java.util.Locale.ROOT,
                    "%s: bench JVM CPU per read, simulated BMCs included (vs %d cores' time per"
                        + " read at the ideal rate; %.2f new connections per read; JIT %.2f ms"
                        + " per read after a warm-up of %d passes; load %.1f -> %.1f) (info)",
                    measure,
                    cores,
                    connectionsPerRead,
                    compilePerRead,
                    warmUp.passes(),
                    loadBefore,
                    LOAD.getSystemLoadAverage()),
                cpuPerRead,
                budget,
                "ms",
                cpuPerRead / budget,
                "info",
                true),
            // bamel's own side: in a real site the BMCs' side of each handshake and request is
            // the BMCs' CPU, not the bamel host's (docs/benchmarks-history.md, "TLS sessions do
            // resume")
            new BenchResult(
                name(),
                String.format(
                    java.util.Locale.ROOT,
                    "%s: the driver's threads' CPU per read, without the simulated BMCs' (%.2f ms"
                        + " per read; %.2f full TLS handshakes per read, the rest resumed) (info)",
                    measure,
                    simulatorCpuPerRead,
                    fullHandshakesPerRead),
                driverCpuPerRead,
                budget,
                "ms",
                driverCpuPerRead / budget,
                "info",
                true));
      } finally {
        pool.shutdownNow();
      }
    }
  }

  private static void readAll(
      PowerDriver driver,
      List<BmcEndpoint> endpoints,
      ExecutorService pool,
      AtomicLong reads,
      PowerReadTally tally,
      Duration deadline)
      throws Exception {
    List<Future<BmcPowerState>> results = new ArrayList<>();
    for (BmcEndpoint endpoint : endpoints) {
      results.add(
          pool.submit(
              () -> {
                reads.incrementAndGet();
                return tally.record(driver.bmcPowerState(endpoint, Deadline.in(deadline)));
              }));
    }
    List<BmcPowerState> states = new ArrayList<>();
    for (Future<BmcPowerState> read : results) {
      states.add(read.get());
    }
    tally.requireRealStates("power-redfish-reads");
    for (BmcPowerState state : states) {
      if (state != BmcPowerState.OFF) {
        throw new IllegalStateException("unexpected power state " + state);
      }
    }
  }

  /** The CPU time this JVM has used so far (0 where the JVM does not tell). */
  private static long processCpuNanos() {
    return LOAD instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() : 0;
  }

  /**
   * Discovery and login happened once per system (in the untimed pass), and the metrics counted
   * every read as a successful status call.
   */
  private static void check(
      List<SimulatedSystem> fleetSystems, PowerDriverRegistry registry, long reads) {
    for (SimulatedSystem system : fleetSystems) {
      if (system.count(SimOperation.SERVICE_ROOT) != 1
          || system.count(SimOperation.SYSTEMS) != 1
          || system.count(SimOperation.LOGIN) != 1) {
        throw new IllegalStateException(
            system.id() + " was discovered or logged in to more than once");
      }
    }
    long counted =
        registry.metrics().count(RedfishDriver.INTERFACE, PowerOperation.STATUS, PowerMetrics.OK);
    if (counted != reads) {
      throw new IllegalStateException("metrics counted " + counted + " of " + reads + " reads");
    }
  }
}
