package io.bamel.power.sim;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs a simulated BMC fleet until stopped (the demo of {@code make run}): prints one line per
 * system with its Redfish address.
 */
@Command(
    name = "bamel-bmc-sim",
    mixinStandardHelpOptions = true,
    description = "Serves simulated Redfish BMCs on 127.0.0.1 until stopped.")
public final class SimulatorMain implements Callable<Integer> {

  @Option(names = "--systems", defaultValue = "10", description = "how many systems")
  int systems;

  @Option(names = "--prefix", defaultValue = "node-", description = "system id prefix")
  String prefix;

  @Option(names = "--port", defaultValue = "0", description = "port (0: a free one)")
  int port;

  @Option(names = "--plain-http", description = "serve HTTP instead of self-signed HTTPS")
  boolean plainHttp;

  @Option(names = "--ca-file", description = "write the certificate (the CA bundle) here")
  Path caFile;

  @Option(names = "--username", defaultValue = "admin", description = "accepted user")
  String username;

  @Option(names = "--password", defaultValue = "password", description = "accepted password")
  String password;

  @Option(names = "--delay-ms", defaultValue = "3000", description = "power change delay")
  long delayMillis;

  @Option(names = "--latency-ms", defaultValue = "0", description = "added answer latency")
  long latencyMillis;

  /** Entry point. */
  public static void main(String[] args) {
    System.exit(new CommandLine(new SimulatorMain()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    SimulatedBmcFleet fleet = SimulatedBmcFleet.start(!plainHttp, port, Clock.systemUTC());
    SimSystemConfig config =
        SimSystemConfig.defaults()
            .withCredentials(username, password)
            .withPowerDelay(Duration.ofMillis(delayMillis));
    for (SimulatedSystem system : fleet.addSystems(systems, prefix, config)) {
      system.faults().latency(Duration.ofMillis(latencyMillis));
      System.out.println(system.id() + " " + fleet.address(system.id()));
    }
    if (caFile != null && !plainHttp) {
      fleet.writeCaBundle(caFile);
      System.out.println("ca-file " + caFile);
    }
    System.out.flush();
    CountDownLatch stop = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  fleet.close();
                  stop.countDown();
                }));
    stop.await();
    return 0;
  }
}
