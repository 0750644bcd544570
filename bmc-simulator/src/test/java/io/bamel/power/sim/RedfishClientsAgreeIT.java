package io.bamel.power.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.PowerOffMode;
import io.bamel.power.Sleeper;
import io.bamel.power.TlsSettings;
import io.bamel.power.credentials.CredentialStore;
import io.bamel.power.redfish.RedfishConfig;
import io.bamel.power.redfish.RedfishDriver;
import io.bamel.power.testing.CredentialDirs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Two Redfish clients bamel did not write, Ironic's sushy (Debian {@code python3-sushy}) and DMTF's
 * redfishtool (Debian {@code redfishtool}), against the simulator over HTTPS: they read the same
 * power state, boot override and serial number as bamel's {@link RedfishDriver}, and each one's
 * power changes are seen by the others. Each simulated system has a loopback port of its own and is
 * served at its root, as a BMC is (redfishtool takes only a host and port). The password is a
 * throwaway one: redfishtool takes it on its command line; sushy gets it from its environment.
 * Skipped, with a message, where the Debian tools are not installed ({@code make test} installs
 * them).
 */
class RedfishClientsAgreeIT {

  private static final String USER = "admin";
  private static final String PASSWORD = "clients-agree-throwaway";
  private static final Path PYTHON = Path.of("/usr/bin/python3");
  private static final Path REDFISHTOOL = Path.of("/usr/bin/redfishtool");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, BmcPowerState> POWER =
      Map.of("On", BmcPowerState.ON, "Off", BmcPowerState.OFF);

  @TempDir static Path dir;
  @AutoClose static SimulatedBmcFleet fleet;
  static Path caFile;
  static Path sushyProbe;
  @AutoClose static RedfishDriver driver;
  static int next;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(
        Files.isExecutable(REDFISHTOOL),
        "Debian's redfishtool is not installed (make test installs it: scripts/ensure-deps.sh)");
    assumeTrue(
        Files.isExecutable(PYTHON)
            && run(List.of(PYTHON.toString(), "-c", "import sushy"), Map.of()).exit == 0,
        "Debian's python3-sushy is not installed (make test installs it: scripts/ensure-deps.sh)");
    fleet = SimulatedBmcFleet.startPortPerSystem(true);
    caFile = fleet.writeCaBundle(dir.resolve("ca.pem"));
    sushyProbe = dir.resolve("sushy_probe.py");
    try (InputStream in = RedfishClientsAgreeIT.class.getResourceAsStream("sushy_probe.py")) {
      Files.copy(in, sushyProbe);
    }
    CredentialDirs.write(dir.resolve("secrets"), "bmc", USER, PASSWORD);
    driver =
        new RedfishDriver(
            new CredentialStore(dir.resolve("secrets")),
            RedfishConfig.defaults().withPollInterval(Duration.ofMillis(50)),
            Clock.systemUTC(),
            Sleeper.SYSTEM);
  }

  private static SimulatedSystem add(SimProfile profile) {
    return fleet.add(
        "agree-" + next++,
        SimSystemConfig.defaults()
            .withCredentials(USER, PASSWORD)
            .withPowerDelay(Duration.ofMillis(300))
            .withProfile(profile));
  }

  private static BmcEndpoint endpoint(SimulatedSystem system) {
    return new BmcEndpoint(
        fleet.rootAddress(system.id()), "bmc", TlsSettings.caBundle(caFile), Map.of());
  }

  private static Deadline deadline() {
    return Deadline.in(Duration.ofSeconds(30));
  }

  // ------------------------------------------------------------------ reads agree, every profile

  static List<SimProfile> profiles() {
    return SimProfile.ALL;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("profiles")
  void sushyRedfishtoolAndBamelReadTheSameSystem(SimProfile profile) throws Exception {
    SimulatedSystem system = add(profile);
    system.forcePowerState(BmcPowerState.ON);
    driver.setBootDevice(endpoint(system), BootOverride.pxeOnce(), deadline());

    JsonNode sushy = sushy(system, "read");
    JsonNode tool = redfishtool(system, "get");

    String serial = driver.inspect(endpoint(system), deadline()).serial();
    assertThat(serial).isEqualTo("SIM-" + system.id().toUpperCase(Locale.ROOT));
    assertThat(sushy.path("serial").asText()).isEqualTo(serial);
    assertThat(tool.path("SerialNumber").asText()).isEqualTo(serial);

    assertThat(driver.bmcPowerState(endpoint(system), deadline())).isEqualTo(BmcPowerState.ON);
    assertThat(POWER.get(sushy.path("powerState").asText())).isEqualTo(BmcPowerState.ON);
    assertThat(POWER.get(tool.path("PowerState").asText())).isEqualTo(BmcPowerState.ON);

    assertThat(List.of(sushy.path("bootTarget").asText(), sushy.path("bootEnabled").asText()))
        .as("sushy reads the boot override bamel set")
        .isEqualTo(system.bootOverride())
        .containsExactly("Pxe", "Once");
    assertThat(
            List.of(
                tool.path("Boot").path("BootSourceOverrideTarget").asText(),
                tool.path("Boot").path("BootSourceOverrideEnabled").asText()))
        .as("redfishtool reads the boot override bamel set")
        .containsExactly("Pxe", "Once");

    // sushy 4.3 reads the inline list only (not an ActionInfo); compare where that list is clean
    boolean inline =
        tool.path("Actions").path("#ComputerSystem.Reset").has("ResetType@Redfish.AllowableValues");
    if (inline && profile.inlineResetNames().isEmpty()) {
      List<String> sushyTypes = new ArrayList<>();
      sushy.path("resetTypes").forEach(t -> sushyTypes.add(t.asText()));
      assertThat(sushyTypes)
          .as("sushy reads the reset types the system accepts")
          .containsExactlyInAnyOrderElementsOf(profile.resetTypes());
    }
  }

  // ------------------------------------------------------------------ changes are seen by all

  @Test
  void powerChangedByEachClientIsSeenByTheOthers() throws Exception {
    SimulatedSystem system = add(SimProfile.DEFAULT);
    assertThat(driver.bmcPowerState(endpoint(system), deadline())).isEqualTo(BmcPowerState.OFF);

    sushy(system, "on");
    awaitSettled(system, BmcPowerState.ON);
    assertThat(redfishtool(system, "get").path("PowerState").asText()).isEqualTo("On");

    driver.powerOff(endpoint(system), PowerOffMode.FORCE, deadline());
    awaitSettled(system, BmcPowerState.OFF);
    assertThat(sushy(system, "read").path("powerState").asText()).isEqualTo("Off");
    assertThat(redfishtool(system, "get").path("PowerState").asText()).isEqualTo("Off");

    redfishtool(system, "reset", "On");
    awaitSettled(system, BmcPowerState.ON);
    assertThat(sushy(system, "read").path("powerState").asText()).isEqualTo("On");

    sushy(system, "force-off");
    awaitSettled(system, BmcPowerState.OFF);
    assertThat(redfishtool(system, "get").path("PowerState").asText()).isEqualTo("Off");

    driver.powerOn(endpoint(system), deadline());
    awaitSettled(system, BmcPowerState.ON);
    assertThat(sushy(system, "read").path("powerState").asText()).isEqualTo("On");
    assertThat(redfishtool(system, "get").path("PowerState").asText()).isEqualTo("On");

    redfishtool(system, "reset", "ForceOff");
    awaitSettled(system, BmcPowerState.OFF);

    assertThat(system.resets("On"))
        .as("sushy, redfishtool and bamel each turned it on")
        .isEqualTo(3);
    assertThat(system.resets("ForceOff")).as("each turned it off").isEqualTo(3);
  }

  @Test
  void aBootOverrideSetByEachClientIsReadByTheOthers() throws Exception {
    // OpenBMC's shape: ETag header and body, If-Match once given. (sushy 4.3 takes If-Match from
    // the ETag header only, so XCC's body-only @odata.etag gets its PATCH a 428.)
    SimulatedSystem bySushy = add(SimProfile.OPENBMC);
    sushy(bySushy, "pxe-once");
    assertThat(bySushy.bootOverride()).containsExactly("Pxe", "Once");
    JsonNode boot = redfishtool(bySushy, "get").path("Boot");
    assertThat(boot.path("BootSourceOverrideTarget").asText()).isEqualTo("Pxe");
    assertThat(boot.path("BootSourceOverrideEnabled").asText()).isEqualTo("Once");

    SimulatedSystem byTool = add(SimProfile.DEFAULT);
    redfishtool(byTool, "setBootOverride", "Once", "Pxe");
    assertThat(byTool.bootOverride()).containsExactly("Pxe", "Once");
    JsonNode read = sushy(byTool, "read");
    assertThat(read.path("bootTarget").asText()).isEqualTo("Pxe");
    assertThat(read.path("bootEnabled").asText()).isEqualTo("Once");
  }

  /** Waits until bamel's driver reads {@code state}, as the other clients then should. */
  private static void awaitSettled(SimulatedSystem system, BmcPowerState state) throws Exception {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    BmcPowerState read = driver.bmcPowerState(endpoint(system), deadline());
    while (read != state && System.nanoTime() < until) {
      Thread.sleep(100);
      read = driver.bmcPowerState(endpoint(system), deadline());
    }
    assertThat(read).as("bamel's driver reads the change").isEqualTo(state);
  }

  // ------------------------------------------------------------------ the two clients

  private static JsonNode sushy(SimulatedSystem system, String action) throws Exception {
    Result result =
        run(
            List.of(
                PYTHON.toString(),
                sushyProbe.toString(),
                fleet.rootAddress(system.id()),
                caFile.toString(),
                action),
            Map.of("SIM_USER", USER, "SIM_PASSWORD", PASSWORD));
    assertThat(result.exit).as("sushy %s: %s", action, result.err).isZero();
    return JSON.readTree(result.out);
  }

  private static JsonNode redfishtool(SimulatedSystem system, String... operation)
      throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                REDFISHTOOL.toString(),
                "-r",
                fleet.rootAddress(system.id()).replaceFirst("^https://", ""),
                "-u",
                USER,
                "-p",
                PASSWORD,
                "-S",
                "Always",
                "Systems",
                "-1"));
    command.addAll(List.of(operation));
    Result result = run(command, Map.of());
    assertThat(result.exit).as("redfishtool %s: %s", List.of(operation), result.err).isZero();
    return result.out.isBlank() ? JSON.createObjectNode() : JSON.readTree(result.out);
  }

  private record Result(int exit, String out, String err) {}

  /**
   * Runs a client with {@code environment} added, without the variables that make Python's requests
   * ignore the CA bundle it is given.
   */
  private static Result run(List<String> command, Map<String, String> environment)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().remove("REQUESTS_CA_BUNDLE");
    builder.environment().remove("CURL_CA_BUNDLE");
    builder.environment().putAll(environment);
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    builder.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process process = builder.start();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException(command.get(0) + " did not finish in 120 s");
    }
    return new Result(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }
}
