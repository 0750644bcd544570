package io.bamel.bench.power;

import io.bamel.bench.BenchContext;
import io.bamel.bench.BenchResult;
import io.bamel.bench.Benchmark;
import io.bamel.bench.PowerReadTally;
import io.bamel.bench.Timer;
import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.Deadline;
import io.bamel.power.credentials.Credentials;
import io.bamel.power.ipmi.IpmiDriver;
import io.bamel.power.ipmi.IpmiImplementation;
import io.bamel.power.sim.ClientRun;
import io.bamel.power.sim.IpmiSimulator;
import io.bamel.power.sim.Ipmitool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * One {@code bamel} IPMI power-state read (the IPMI driver with its native RMCP+ client, its
 * session kept between reads as in the node controller) against one bare {@code ipmitool chassis
 * power status}, both against the same {@code ipmi_sim}: medians of alternating runs, and the CPU
 * each read costs (this JVM's for bamel, the waited-for children's for ipmitool); then the CPU per
 * read of the same driver's native client against its ipmitool path, before and after. Runs are
 * spaced by 250 ms, untimed, so the driver's minimum interval between commands to one BMC (200 ms)
 * never adds to a timed read.
 */
public final class IpmiStatusBenchmark implements Benchmark {

  private static final String PASSWORD = "bench-ipmi-pw";

  @Override
  public String name() {
    return "power-ipmi-status";
  }

  @Override
  public List<BenchResult> run(BenchContext context) throws Exception {
    int runs = Math.max(3, context.size("power.ipmi.runs", 31));
    Path dir = Files.createTempDirectory("bamel-bench-ipmi");
    try (IpmiSimulator sim = IpmiSimulator.start(dir, "admin", PASSWORD);
        IpmiDriver driver = new IpmiDriver(name -> Credentials.of("admin", PASSWORD))) {
      BmcEndpoint bmc = BmcEndpoint.of(sim.address(), "bmc");
      PowerReadTally tally = new PowerReadTally();
      double[] cpu = new double[2];
      // Alternating (bare, bamel, bare, ...) so that ipmi_sim's and the machine's slow spells
      // weigh on both alike.
      double[] medians =
          Timer.interleavedMedians(
              runs,
              paced(
                  () -> {
                    double before = ProcessCpu.selfMillis();
                    BmcPowerState state =
                        tally.record(
                            driver.bmcPowerState(bmc, Deadline.in(Duration.ofSeconds(20))));
                    tally.requireRealStates(name());
                    if (state != BmcPowerState.OFF) {
                      throw new IllegalStateException("unexpected state " + state);
                    }
                    cpu[0] += ProcessCpu.selfMillis() - before;
                  }),
              paced(
                  () -> {
                    double before = ProcessCpu.childrenMillis();
                    bareIpmitool(sim.port());
                    cpu[1] += ProcessCpu.childrenMillis() - before;
                  }));
      double bamel = medians[0];
      double bare = medians[1];
      double[] before = beforeAndAfter(sim, bmc, driver, runs);
      return List.of(
          new BenchResult(
              name() + "-cpu-before-after",
              "CPU per status read: the driver's native client (after) vs the same driver with"
                  + " ipmi.implementation: ipmitool (before; this JVM and its ipmitool children)",
              before[0],
              before[1],
              "ms",
              before[0] / before[1],
              "info",
              true),
          BenchResult.ratioAtMost(
              name(),
              "median of " + runs + " status reads vs bare ipmitool",
              bamel,
              bare,
              "ms",
              0.5),
          BenchResult.ratioAtMost(
              name() + "-cpu",
              "CPU per status read (warm-up included) vs bare ipmitool's",
              cpu[0] / (runs + 1),
              cpu[1] / (runs + 1),
              "ms",
              0.5));
    }
  }

  /**
   * CPU per read of the native driver and of the driver's ipmitool path ({@code
   * ipmi.implementation: ipmitool}, the path before the native client), alternating, each paced as
   * above: {native ms, ipmitool ms}. The ipmitool path is charged this JVM's CPU (starting the
   * process, parsing) plus its children's.
   */
  private static double[] beforeAndAfter(
      IpmiSimulator sim, BmcEndpoint bmc, IpmiDriver driver, int runs) throws Exception {
    BmcEndpoint viaIpmitool =
        bmc.withOption(IpmiDriver.OPTION_IMPLEMENTATION, IpmiImplementation.IPMITOOL.value());
    double[] cpu = new double[2];
    Timer.interleavedMedians(
        runs,
        paced(
            () -> {
              double before = ProcessCpu.selfMillis();
              requireOff(driver.bmcPowerState(bmc, Deadline.in(Duration.ofSeconds(20))));
              cpu[0] += ProcessCpu.selfMillis() - before;
            }),
        paced(
            () -> {
              double before = ProcessCpu.selfMillis() + ProcessCpu.childrenMillis();
              requireOff(driver.bmcPowerState(viaIpmitool, Deadline.in(Duration.ofSeconds(20))));
              cpu[1] += ProcessCpu.selfMillis() + ProcessCpu.childrenMillis() - before;
            }));
    return new double[] {cpu[0] / (runs + 1), cpu[1] / (runs + 1)};
  }

  /**
   * {@code work} as a trial whose runs are 250 ms apart (untimed), so the driver's minimum interval
   * between commands to one BMC (200 ms) never adds to a timed read.
   */
  private static Timer.Trial paced(Timer.Trial work) {
    return new Timer.Trial() {
      @Override
      public void prepare() throws Exception {
        Thread.sleep(250);
      }

      @Override
      public void run() throws Exception {
        work.run();
      }
    };
  }

  private static void requireOff(BmcPowerState state) {
    if (state != BmcPowerState.OFF) {
      throw new IllegalStateException("unexpected state " + state);
    }
  }

  private static void bareIpmitool(int port) throws Exception {
    ClientRun run =
        Ipmitool.lanplus(port, "admin", PASSWORD)
            .privilege("ADMINISTRATOR")
            .run("chassis", "power", "status");
    if (run.exit() != 0 || !run.output().contains("Chassis Power is off")) {
      throw new IllegalStateException("ipmitool failed: " + run.output());
    }
  }
}
