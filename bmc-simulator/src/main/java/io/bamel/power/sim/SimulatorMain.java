package io.bamel.power.sim;

import io.bamel.power.tls.X25519Provider;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Runs a simulated BMC fleet until stopped (a stand-alone demo): prints one line per system with
 * its Redfish address. The accepted password never comes from the command line: {@code
 * --password-file FILE}, else the environment variable {@value #PASSWORD_VARIABLE}, else {@value
 * #DEFAULT_PASSWORD}; {@code --password} is refused as a usage error (exit 2).
 */
@Command(
    name = "bamel-bmc-sim",
    mixinStandardHelpOptions = true,
    description = "Serves simulated Redfish BMCs on 127.0.0.1 until stopped.")
public final class SimulatorMain implements Callable<Integer> {

  /** The environment variable holding the accepted password when no file is given. */
  public static final String PASSWORD_VARIABLE = "BAMEL_SIM_PASSWORD";

  /** The accepted password when neither a file nor the environment variable gives one. */
  public static final String DEFAULT_PASSWORD = "password";

  @Spec CommandSpec spec;

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

  @Option(
      names = "--password-file",
      paramLabel = "FILE",
      description =
          "file holding the accepted password (else $"
              + PASSWORD_VARIABLE
              + ", else '"
              + DEFAULT_PASSWORD
              + "')")
  Path passwordFile;

  @Option(names = "--password", hidden = true, description = "refused: use --password-file")
  String passwordOnCommandLine;

  @Option(names = "--delay-ms", defaultValue = "3000", description = "power change delay")
  long delayMillis;

  @Option(names = "--latency-ms", defaultValue = "0", description = "added answer latency")
  long latencyMillis;

  @Option(
      names = "--profile",
      defaultValue = "default",
      description =
          "vendor shape: default, idrac9, idrac8, ilo5, xcc, supermicro-x12 or openbmc"
              + " (default ${DEFAULT-VALUE})")
  String profile;

  @Option(
      names = "--mockup",
      paramLabel = "NAME",
      description =
          "DMTF's published tree the systems start from: public-rackmount1 (the profile's),"
              + " public-tower, public-bladed, public-localstorage or public-liquid-cooled-server")
  String mockup;

  @Option(names = "--blade", description = "each system is a blade in an enclosure chassis")
  boolean blade;

  @Option(
      names = "--connection",
      defaultValue = "keep-alive",
      paramLabel = "MODE",
      description =
          "keep-alive (closed after 30 s idle), keep-alive:MILLIS, http10 (HTTP/1.0, closed"
              + " after every answer) or close (Connection: close on every answer)")
  String connection;

  /** Entry point. */
  public static void main(String[] args) {
    X25519Provider.install();
    System.exit(new CommandLine(new SimulatorMain()).execute(args));
  }

  /**
   * The accepted password: the contents of {@code file} (one trailing newline dropped) when given,
   * else {@code $BAMEL_SIM_PASSWORD} from {@code environment} when set and not empty, else {@value
   * #DEFAULT_PASSWORD}.
   */
  static String password(Path file, Map<String, String> environment) throws IOException {
    if (file != null) {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      text = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
      text = text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
      if (text.isEmpty()) {
        throw new IOException(file + " is empty");
      }
      return text;
    }
    String variable = environment.get(PASSWORD_VARIABLE);
    return variable == null || variable.isEmpty() ? DEFAULT_PASSWORD : variable;
  }

  @Override
  public Integer call() throws Exception {
    if (passwordOnCommandLine != null) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "--password is not accepted (a command line is visible to every user):"
              + " use --password-file FILE or the environment variable "
              + PASSWORD_VARIABLE);
    }
    String password;
    try {
      password = password(passwordFile, System.getenv());
    } catch (IOException e) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "cannot read --password-file: " + e.getMessage());
    }
    SimProfile shape;
    SimConnection behaviour;
    try {
      shape = SimProfile.named(profile);
      if (mockup != null) {
        shape = shape.onMockup(mockup);
      }
      behaviour = SimConnection.parse(connection);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    if (blade) {
      shape = shape.inBladeEnclosure();
    }
    SimulatedBmcFleet fleet = SimulatedBmcFleet.start(!plainHttp, port, Clock.systemUTC());
    SimSystemConfig config =
        SimSystemConfig.defaults()
            .withProfile(shape)
            .withConnection(behaviour)
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
