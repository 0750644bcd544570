package io.bamel.bench.power;

import io.bamel.bench.BenchContext;
import io.bamel.bench.BenchResult;
import io.bamel.bench.Benchmark;
import io.bamel.bench.Timer;
import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.Deadline;
import io.bamel.power.credentials.Credentials;
import io.bamel.power.ipmi.IpmiDriver;
import io.bamel.power.sim.IpmiSimulator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The power state of every BMC of a fleet of {@code ipmi_sim} instances (each on its own loopback
 * port): bamel's IPMI driver (native RMCP+ client, one socket, new sessions each round, all BMCs at
 * once on virtual threads) in this warm JVM, against freeipmi's {@code ipmipower -h <all> --stat}
 * started once per round (its process start counted, bamel's JVM start not), alternating, medians;
 * and the CPU each spends per read.
 */
public final class IpmiFleetBenchmark implements Benchmark {

  private static final String PASSWORD = "bench-fleet-pw";

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
      Path config = freeipmiConfig(dir);
      double[] cpu = new double[2];
      double[] medians =
          Timer.interleavedMedians(
              runs,
              new Timer.Trial() {
                @Override
                public void run() throws Exception {
                  double before = ProcessCpu.selfMillis();
                  readAll(addresses);
                  cpu[0] += ProcessCpu.selfMillis() - before;
                }
              },
              new Timer.Trial() {
                @Override
                public void run() throws Exception {
                  double before = ProcessCpu.childrenMillis();
                  ipmipower(config, addresses);
                  cpu[1] += ProcessCpu.childrenMillis() - before;
                }
              });
      int reads = (runs + 1) * size; // the warm-up round included
      return List.of(
          BenchResult.ratioAtMost(
              name(),
              "median of " + runs + " status reads of " + size + " BMCs vs ipmipower -h",
              medians[0],
              medians[1],
              "ms",
              1.0),
          BenchResult.ratioAtMost(
              name() + "-cpu",
              "CPU per BMC read (this JVM, warm-up included) vs ipmipower's",
              cpu[0] / reads,
              cpu[1] / reads,
              "ms",
              1.0));
    } finally {
      sims.forEach(IpmiSimulator::close);
    }
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

  static Path freeipmiConfig(Path dir) throws Exception {
    Path config = dir.resolve("freeipmi.conf");
    Files.deleteIfExists(config);
    Files.createFile(
        config, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(config, "username admin\npassword " + PASSWORD + "\n");
    return config;
  }

  /** {@code ipmipower -h a,b,... --stat}; every BMC must answer off. */
  static void ipmipower(Path config, List<String> addresses) throws Exception {
    Process process =
        new ProcessBuilder(
                "ipmipower",
                "--config-file=" + config,
                "-h",
                String.join(",", addresses),
                "-D",
                "LAN_2_0",
                "-I",
                "3",
                "-l",
                "ADMIN",
                "-W",
                "opensesspriv",
                // bamel's retransmission timeout (IpmiConfig: 1 s), so that both wait alike; at
                // freeipmi's shorter default a loaded ipmi_sim's late answers are all retried
                "--retransmission-timeout=1000",
                "--stat")
            .redirectErrorStream(true)
            .start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    long off = out.lines().filter(line -> line.endsWith(": off")).count();
    if (process.waitFor() != 0 || off != addresses.size()) {
      throw new IllegalStateException(
          "ipmipower read " + off + " of " + addresses.size() + ": " + out);
    }
  }
}
