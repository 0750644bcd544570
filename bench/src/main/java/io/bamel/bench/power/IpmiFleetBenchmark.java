package io.bamel.bench.power;

import io.bamel.bench.BenchContext;
import io.bamel.bench.BenchResult;
import io.bamel.bench.Benchmark;
import io.bamel.bench.JitWarmUp;
import io.bamel.bench.Timer;
import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.Deadline;
import io.bamel.power.credentials.Credentials;
import io.bamel.power.ipmi.IpmiDriver;
import io.bamel.power.sim.ClientRun;
import io.bamel.power.sim.Freeipmi;
import io.bamel.power.sim.IpmiSimulator;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The power state of every BMC of a fleet of {@code ipmi_sim} instances (each on its own loopback
 * port): bamel's IPMI driver (native RMCP+ client, one socket, new sessions each round, all BMCs at
 * once on virtual threads) in this JVM, against freeipmi's {@code ipmipower -h <all> --stat}
 * started once per round (its process start counted, bamel's JVM start not), alternating, medians;
 * and the CPU each spends per read.
 *
 * <p>The first round of each is measured apart (information): bamel's pays this JVM's class
 * loading, interpreter and first compilations once per process, ipmipower pays its start at every
 * round. Untimed rounds of the driver then run until HotSpot's JIT is steady ({@link JitWarmUp}),
 * as in a controller that has been running, before the timed rounds, whose CPU (the JIT's and the
 * GC's included) is the {@code -cpu} row. Counting the first round into the timed ones made the
 * figure depend on how many rounds the run had.
 */
public final class IpmiFleetBenchmark implements Benchmark {

  private static final String PASSWORD = "bench-fleet-pw";

  /**
   * Rounds per warm-up pass: a round of a small fleet takes under JitWarmUp's slice and compiles
   * little while C2 waits for its counters, so two one-round passes looked calm too soon.
   */
  private static final int ROUNDS_PER_WARM_UP_PASS = 5;

  /** The bound on untimed warm-up passes before the timed rounds ({@link JitWarmUp}). */
  private static final int MAX_WARM_UP_PASSES = 12;

  private static final OperatingSystemMXBean LOAD = ManagementFactory.getOperatingSystemMXBean();

  @Override
  public String name() {
    return "ipmi-fleet-status";
  }

  @Override
  public List<BenchResult> run(BenchContext context) throws Exception {
    int size = Math.max(2, context.size("power.ipmi.fleet", 50));
    int runs = Math.max(3, context.size("power.ipmi.fleet.runs", 11));
    Path dir = Files.createTempDirectory("bamel-bench-ipmi-fleet");
    List<IpmiSimulator> sims = new ArrayList<>();
    try {
      for (int i = 0; i < size; i++) {
        sims.add(IpmiSimulator.start(dir.resolve("sim" + i), "admin", PASSWORD));
      }
      List<String> addresses = sims.stream().map(IpmiSimulator::address).toList();
      Path config = Freeipmi.config(dir, "freeipmi.conf", "admin", PASSWORD);
      // The first round of each, apart: bamel's is this JVM's first contact with the code (class
      // loading, the interpreter, the JIT's first compilations), paid once per process; every
      // ipmipower round is a first contact, its process start included.
      double firstBamelCpu = selfCpuOf(() -> readAll(addresses));
      double firstIpmipowerCpu = childrenCpuOf(() -> ipmipower(config, addresses));
      // then untimed rounds until the JIT is steady, as in a controller that has been running
      JitWarmUp.WarmUpReport warmUp =
          JitWarmUp.run(
              List.of(
                  () -> {
                    for (int i = 0; i < ROUNDS_PER_WARM_UP_PASS; i++) {
                      readAll(addresses);
                    }
                  }),
              context.quick() ? 1 : MAX_WARM_UP_PASSES);
      System.out.printf("%s: warm-up %s%n", name(), warmUp);
      double loadBefore = LOAD.getSystemLoadAverage();
      long compileBefore = JitWarmUp.compilationMillis();
      double[] bamelMillis = new double[runs];
      double[] ipmipowerMillis = new double[runs];
      double bamelCpu = 0;
      double ipmipowerCpu = 0;
      for (int i = 0; i < runs; i++) { // alternating, ipmipower first, as Timer.interleavedMedians
        double before = ProcessCpu.childrenMillis();
        ipmipowerMillis[i] = Timer.once(() -> ipmipower(config, addresses));
        ipmipowerCpu += ProcessCpu.childrenMillis() - before;
        before = ProcessCpu.selfMillis();
        bamelMillis[i] = Timer.once(() -> readAll(addresses));
        bamelCpu += ProcessCpu.selfMillis() - before;
      }
      int reads = runs * size;
      double compilePerRead = (double) (JitWarmUp.compilationMillis() - compileBefore) / reads;
      return List.of(
          BenchResult.ratioAtMost(
              name(),
              "median of " + runs + " status reads of " + size + " BMCs vs ipmipower -h",
              Timer.percentile(bamelMillis, 0.5),
              Timer.percentile(ipmipowerMillis, 0.5),
              "ms",
              1.0),
          BenchResult.ratioAtMost(
              name() + "-cpu",
              String.format(
                  Locale.ROOT,
                  "CPU per BMC read in the timed rounds (this JVM's, its JIT and GC included; JIT"
                      + " %.2f ms per read after a warm-up of %d rounds; load %.1f -> %.1f) vs"
                      + " ipmipower's (its process start included)",
                  compilePerRead,
                  warmUp.passes() * ROUNDS_PER_WARM_UP_PASS,
                  loadBefore,
                  LOAD.getSystemLoadAverage()),
              bamelCpu / reads,
              ipmipowerCpu / reads,
              "ms",
              1.0),
          new BenchResult(
              name() + "-cpu-first-round",
              "CPU per BMC read of the first round (this JVM's first contact with the code: class"
                  + " loading, interpreter, JIT) vs ipmipower's first round (info)",
              firstBamelCpu / size,
              firstIpmipowerCpu / size,
              "ms",
              firstBamelCpu / firstIpmipowerCpu,
              "info",
              true));
    } finally {
      sims.forEach(IpmiSimulator::close);
    }
  }

  /** The CPU time of this JVM while {@code work} runs, in ms. */
  private static double selfCpuOf(Timer.Trial work) throws Exception {
    double before = ProcessCpu.selfMillis();
    work.run();
    return ProcessCpu.selfMillis() - before;
  }

  /** The CPU time of the children {@code work} waits for, in ms. */
  private static double childrenCpuOf(Timer.Trial work) throws Exception {
    double before = ProcessCpu.childrenMillis();
    work.run();
    return ProcessCpu.childrenMillis() - before;
  }

  /** One round: a new driver (so new sessions, as ipmipower opens), every BMC at once. */
  static void readAll(List<String> addresses) throws Exception {
    try (IpmiDriver driver = new IpmiDriver(name -> Credentials.of("admin", PASSWORD));
        var executor = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<BmcPowerState>> states = new ArrayList<>();
      for (String address : addresses) {
        BmcEndpoint bmc = BmcEndpoint.of(address, "bmc");
        states.add(
            executor.submit(() -> driver.bmcPowerState(bmc, Deadline.in(Duration.ofSeconds(20)))));
      }
      for (Future<BmcPowerState> state : states) {
        if (state.get() != BmcPowerState.OFF) {
          throw new IllegalStateException("unexpected state " + state.get());
        }
      }
    }
  }

  /** {@code ipmipower -h a,b,... --stat}; every BMC must answer off. */
  static void ipmipower(Path config, List<String> addresses) throws Exception {
    ClientRun run =
        Freeipmi.lan20("ipmipower", config, String.join(",", addresses))
            .workaround("opensesspriv")
            // bamel's retransmission timeout (IpmiConfig: 1 s), so that both wait alike; at
            // freeipmi's shorter default a loaded ipmi_sim's late answers are all retried
            .retransmissionTimeout(Duration.ofSeconds(1))
            .run("--stat");
    String out = run.output();
    long off = out.lines().filter(line -> line.endsWith(": off")).count();
    if (run.exit() != 0 || off != addresses.size()) {
      throw new IllegalStateException(
          "ipmipower read " + off + " of " + addresses.size() + ": " + out);
    }
  }
}
