package io.bamel.server.client.bmc;

import static io.bamel.server.client.bmc.BmcRun.args;
import static io.bamel.server.client.bmc.BmcRun.redfish;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.power.BmcPowerState;
import io.bamel.power.sim.IpmiSimulator;
import io.bamel.power.sim.SimOperation;
import io.bamel.power.sim.SimProfile;
import io.bamel.power.sim.SimSystemConfig;
import io.bamel.power.sim.SimulatedBmcFleet;
import io.bamel.power.sim.SimulatedSystem;
import io.bamel.power.sim.WolListener;
import io.bamel.power.testing.CredentialDirs;
import io.bamel.power.testing.IpmiTools;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bamel bmc} run as its own process against the simulator, ipmi_sim and a UDP socket. */
class BmcCommandIT {

  private static final String PASSWORD = "cli-S3cret-pw";

  /** Warnings and worse on standard error: standard output holds only the command's answer. */
  private static final Path LOGGING = resource("bmc-logback.xml");

  @TempDir static Path dir;
  @AutoClose static SimulatedBmcFleet fleet;
  static Path ca;
  static Path creds;
  static Path badCreds;
  static Path labCreds;

  @BeforeAll
  static void start() throws Exception {
    fleet = SimulatedBmcFleet.start(true);
    ca = fleet.writeCaBundle(dir.resolve("ca.pem"));
    creds = CredentialDirs.write(dir, "bmc-cli", "admin", PASSWORD);
    badCreds = CredentialDirs.write(dir, "bmc-bad", "admin", "not-the-password");
    labCreds = CredentialDirs.write(dir, "bmc-lab", "admin", PASSWORD);
    Files.writeString(labCreds.resolve("allowed-hosts"), "127.0.0.1\ninsecure-skip-verify\n");
  }

  private static SimulatedSystem system(String id) {
    return fleet.add(
        id,
        SimSystemConfig.defaults()
            .withCredentials("admin", PASSWORD)
            .withPowerDelay(Duration.ofMillis(300)));
  }

  static BmcRun bmc(String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-XX:TieredStopAtLevel=1"); // a short-lived CLI: start fast
    command.add("-XX:+UseSerialGC");
    command.add("-Xshare:auto");
    command.add("-Dlogback.configurationFile=" + LOGGING);
    command.add("-cp");
    command.add(classPath());
    command.add(BmcCommand.class.getName());
    command.addAll(List.of(args));
    return BmcRun.ofProcess(new ProcessBuilder(command), dir.resolve("stderr"));
  }

  private static Path resource(String name) {
    try {
      return Path.of(BmcCommandIT.class.getResource(name).toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String classPath() {
    String path = System.getProperty("surefire.test.class.path");
    if (path == null || path.isBlank()) {
      path = System.getProperty("java.class.path");
    }
    return String.join(File.pathSeparator, path.split(File.pathSeparator));
  }

  @Test
  void statusAsJson() throws Exception {
    system("cli-status");
    BmcRun run =
        bmc(args("status", redfish(fleet.address("cli-status"), creds, ca), "--output", "json"));
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.json().path("powerState").asText()).isEqualTo("off");
  }

  @Test
  void onWaitsUntilTheBmcReportsOn() throws Exception {
    SimulatedSystem system = system("cli-on");
    BmcRun run = bmc(args("on", redfish(fleet.systemUri("cli-on"), creds, ca), "--poll-ms", "100"));
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).contains("powerState: on");
    assertThat(system.powerState()).isEqualTo(BmcPowerState.ON);
    assertThat(system.resets("On")).isEqualTo(1);
  }

  @Test
  void aGracefulOffSaysWhichResetTypeWasSent() throws Exception {
    SimulatedSystem system =
        fleet.add(
            "cli-ilo",
            SimSystemConfig.defaults()
                .withCredentials("admin", PASSWORD)
                .withPowerDelay(Duration.ofMillis(300))
                .withProfile(SimProfile.ILO5));
    system.forcePowerState(BmcPowerState.ON);
    BmcRun run =
        bmc(
            args(
                "off",
                redfish(fleet.address("cli-ilo"), creds, ca),
                "--poll-ms",
                "100",
                "--output",
                "json"));
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.json().path("sent").toString()).isEqualTo("[\"PushPowerButton\"]");
    assertThat(run.json().path("forced").asBoolean()).isFalse();
    assertThat(run.json().path("powerState").asText()).isEqualTo("off");
  }

  @Test
  void inspectPrintsTheHardwareWithoutTheHostInterface() throws Exception {
    fleet.add(
        "cli-idrac",
        SimSystemConfig.defaults()
            .withCredentials("admin", PASSWORD)
            .withProfile(SimProfile.IDRAC9));
    BmcRun run =
        bmc(args("inspect", redfish(fleet.address("cli-idrac"), creds, ca), "--output", "json"));
    assertThat(run.exit()).as(run.err()).isZero();
    JsonNode info = run.json();
    assertThat(info.path("manufacturer").asText()).isEqualTo("Dell Inc.");
    assertThat(info.path("biosVersion").asText()).isEqualTo("1.10.2");
    assertThat(info.path("gpus")).hasSize(2);
    assertThat(info.path("gpus").path(0).path("model").asText()).isEqualTo("NVIDIA A100-PCIE-40GB");
    assertThat(info.path("macAddresses")).hasSize(2);
  }

  @Test
  void failsWithOneLineAndNoSecretOnBadCredentials() throws Exception {
    system("cli-bad");
    BmcRun run = bmc(args("status", redfish(fleet.address("cli-bad"), badCreds, ca)));
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err().lines()).hasSize(1);
    assertThat(run.err()).contains("refused the credentials").doesNotContain("not-the-password");
  }

  @Test
  void tlsIsVerifiedUnlessInsecureIsGivenAndTheCredentialAllowsIt() throws Exception {
    SimulatedSystem system = system("cli-tls");
    BmcRun untrusted = bmc(args("status", redfish(fleet.address("cli-tls"), creds, null)));
    assertThat(untrusted.exit()).isEqualTo(1);
    assertThat(untrusted.err()).contains("not trusted");

    long before = system.count(SimOperation.SERVICE_ROOT);
    BmcRun refused =
        bmc(
            args(
                "status",
                redfish(fleet.address("cli-tls"), creds, null),
                "--insecure",
                "--output",
                "json"));
    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.json().path("reason").asText()).isEqualTo("not_allowed");
    assertThat(refused.err())
        .contains("credential 'bmc-cli' may not be sent to https://127.0.0.1")
        .contains("insecure-skip-verify")
        .doesNotContain(PASSWORD);
    assertThat(system.count(SimOperation.SERVICE_ROOT)).isEqualTo(before);

    BmcRun insecure =
        bmc(
            args(
                "status",
                redfish(fleet.address("cli-tls"), labCreds, null),
                "--insecure",
                "--output",
                "json"));
    assertThat(insecure.exit()).as(insecure.err()).isZero();
    assertThat(insecure.json().path("powerState").asText()).isEqualTo("off");
  }

  @Test
  void wakeOnLanOffRunsOnlyANamedCommandFromTheCommandsFile() throws Exception {
    Path out = Files.createDirectories(dir.resolve("wol-off"));
    Path commands =
        Files.writeString(
            dir.resolve("off.yaml"),
            "touch-node: [/usr/bin/env, -C, '" + out + "', /usr/bin/touch, '{node}']\n");
    BmcRun shell =
        bmc(
            "off",
            "--interface",
            "wol",
            "--address",
            "52:54:00:12:34:56",
            "--off-commands-file",
            commands.toString(),
            "--off-command",
            "touch " + out.resolve("pwned") + "; id");
    assertThat(shell.exit()).isEqualTo(1);
    assertThat(shell.err()).contains("no power-off command named 'touch ").contains("touch-node");

    BmcRun named =
        bmc(
            "off",
            "--interface",
            "wol",
            "--address",
            "52:54:00:12:34:56",
            "--off-commands-file",
            commands.toString(),
            "--off-command",
            "touch-node",
            "--node",
            "node-9",
            "--timeout",
            "5");
    assertThat(named.exit()).as(named.err()).isZero();
    try (var files = Files.list(out)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("node-9");
    }
  }

  @Test
  void aUsageErrorExitsWithTwo() throws Exception {
    BmcRun run = bmc("status", "--address", "x");
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err()).contains("--interface");
  }

  @Test
  void aCaFileTogetherWithAPinIsAUsageErrorAndNoBmcIsAsked() throws Exception {
    SimulatedSystem system = system("cli-ca-pin");
    BmcRun run =
        bmc(
            args(
                "status",
                redfish(fleet.address("cli-ca-pin"), creds, ca),
                "--pin-sha256",
                "00".repeat(32)));
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err())
        .contains("--ca-file and --pin-sha256 exclude each other")
        .contains("give one of them");
    assertThat(system.count(SimOperation.SERVICE_ROOT)).isZero();
  }

  @Test
  void wakeOnLanSendsTheMagicPacket() throws Exception {
    try (WolListener listener = WolListener.start()) {
      BmcRun run =
          bmc(
              "on",
              "--interface",
              "wol",
              "--address",
              "52:54:00:12:34:56",
              "--broadcast",
              "127.0.0.1:" + listener.port(),
              "--output",
              "json");
      assertThat(run.exit()).as(run.err()).isZero();
      assertThat(run.json().path("powerState").asText()).isEqualTo("unknown");
      assertThat(listener.next(Duration.ofSeconds(2))).isPresent();
    }
  }

  @Test
  void ipmiStatusOnAndOffAgainstIpmiSim() throws Exception {
    IpmiTools.require();
    try (IpmiSimulator sim = IpmiSimulator.start(dir.resolve("ipmi"), "admin", PASSWORD)) {
      String[] common = {
        "--interface",
        "ipmi",
        "--address",
        sim.address(),
        "--credentials",
        creds.toString(),
        "--output",
        "json",
        "--poll-ms",
        "100"
      };
      BmcRun status = bmc(concat("status", common));
      assertThat(status.exit()).as(status.err()).isZero();
      assertThat(status.json().path("powerState").asText()).isEqualTo("off");

      BmcRun on = bmc(concat("on", common));
      assertThat(on.exit()).as(on.err()).isZero();
      assertThat(sim.poweredOn()).isTrue();

      BmcRun off = bmc(concat("off", concat("--force", common)));
      assertThat(off.exit()).as(off.err()).isZero();
      assertThat(off.json().path("powerState").asText()).isEqualTo("off");
      assertThat(sim.poweredOn()).isFalse();
    }
  }

  private static String[] concat(String first, String... rest) {
    String[] all = new String[rest.length + 1];
    all[0] = first;
    System.arraycopy(rest, 0, all, 1, rest.length);
    return all;
  }
}
