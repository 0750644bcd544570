package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bamel.power.sim.SimSystemConfig;
import io.bamel.power.sim.SimulatedBmcFleet;
import io.bamel.power.testing.CredentialDirs;
import io.bamel.server.client.bmc.BmcRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/bamel bmc} through the launcher, against the simulated Redfish fleet: its standard
 * output is its result alone (logging goes to standard error, warnings only), and a usage error is
 * two lines on standard error with exit code 2.
 */
class BmcCliIT {

  private static final String PASSWORD = "deploy-cli-pw";
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  @TempDir Path dir;

  private BmcRun bamel(String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(BamelProcess.launcher().toString());
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().put("JAVA_OPTS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
    return BmcRun.ofProcess(pb, dir.resolve("stderr"));
  }

  @Test
  void statusAndOnAsJsonAreExactlyOneObjectOnStandardOutput() throws Exception {
    try (SimulatedBmcFleet fleet = SimulatedBmcFleet.start(true)) {
      // Sessions that expire between the polls of `on` (idle 2 s, polls 4 s apart): the driver
      // logs (at debug) each new login, which logback's unconfigured default would print on
      // standard output. The session outlives the gaps between the requests of one read, however
      // slowly a loaded machine runs the launcher's JVM; the polls are further apart than that.
      fleet.add(
          "deploy-cli",
          SimSystemConfig.defaults()
              .withCredentials("admin", PASSWORD)
              .withSessionTimeout(Duration.ofSeconds(2))
              .withPowerDelay(Duration.ofMillis(1500)));
      Path ca = fleet.writeCaBundle(dir.resolve("ca.pem"));
      Path creds = CredentialDirs.write(dir, "deploy-cli", "admin", PASSWORD);
      List<String> common = new ArrayList<>(BmcRun.redfish(fleet.address("deploy-cli"), creds, ca));
      common.addAll(List.of("--output", "json"));

      JsonNode status = oneJsonObject(bamel(concat(List.of("bmc", "status"), common)));
      assertThat(status.path("powerState").asText()).isEqualTo("off");
      assertThat(status.path("interface").asText()).isEqualTo("redfish");

      JsonNode on = oneJsonObject(bamel(concat(List.of("bmc", "on", "--poll-ms", "4000"), common)));
      assertThat(on.path("action").asText()).isEqualTo("on");
      assertThat(on.path("powerState").asText()).isEqualTo("on");
      assertThat(fleet.system("deploy-cli").resets("On")).isEqualTo(1);
    }
  }

  private static String[] concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all.toArray(String[]::new);
  }

  private static JsonNode oneJsonObject(BmcRun run) throws Exception {
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out().strip().lines()).as(run.out()).hasSize(1);
    JsonNode result = JSON.readTree(run.out());
    assertThat(result.isObject()).as(run.out()).isTrue();
    assertThat(run.err()).as("nothing below a warning is logged").doesNotContain("DEBUG", "INFO");
    assertThat(run.out() + run.err()).doesNotContain(PASSWORD);
    return result;
  }

  @Test
  void aUsageErrorIsTwoLinesOnStandardErrorAndExitCode2() throws Exception {
    BmcRun run = bamel("bmc", "status", "--address", "https://192.0.2.1");
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err().strip().lines())
        .hasSize(2)
        .satisfies(l -> assertThat(l.get(0)).startsWith("bamel bmc: ").contains("--interface"))
        .satisfies(l -> assertThat(l.get(1)).isEqualTo("Try 'bamel bmc --help'."));
  }
}
