package io.bamel.server.client.bmc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.power.credentials.CredentialStore;
import io.bamel.power.redfish.dmtf.MockupFacts;
import io.bamel.power.redfish.dmtf.MockupServer;
import io.bamel.power.testing.CredentialDirs;
import io.bamel.redfish.dmtf.DmtfFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code bamel bmc status|on|off|cycle|pxe|power|inspect} (in process, through picocli) against
 * each of DMTF's published mockups served unchanged by {@link MockupServer}: what it prints is
 * compared with what {@link MockupFacts} reads from the files, what it changes with the server's
 * state.
 */
class BmcCommandDmtfIT {

  private static final String PASSWORD = "dmtf-Cli-pw";

  @TempDir static Path dir;
  static Path creds;

  @BeforeAll
  static void credentials() throws Exception {
    creds = CredentialDirs.write(dir, "bmc-dmtf", "admin", PASSWORD);
    Files.writeString(creds.resolve(CredentialStore.ALLOWED_HOSTS), "http://127.0.0.1\n");
  }

  static Stream<String> mockups() {
    return DmtfFiles.MOCKUPS.stream();
  }

  private static String address(MockupServer server, MockupFacts facts) {
    return facts.systems().size() == 1 ? server.baseUrl() : server.url(facts.target());
  }

  private static BmcRun bmc(MockupServer server, MockupFacts facts, String action, String... more) {
    List<String> flags = new ArrayList<>(BmcRun.redfish(address(server, facts), creds, null));
    flags.addAll(List.of("--output", "json", "--poll-ms", "20", "--timeout", "20"));
    return BmcRun.inProcess(BmcRun.args(action, flags, more));
  }

  private static String served(MockupServer server, MockupFacts facts) {
    return server.system(facts.target()).path("PowerState").asText();
  }

  @Test
  void statusOfRackmount1IsOn() throws Exception {
    try (MockupServer server = MockupServer.start("public-rackmount1", "admin", PASSWORD)) {
      BmcRun run = bmc(server, new MockupFacts(server.mockup()), "status");
      assertThat(run.exit()).as(run.err()).isZero();
      assertThat(run.out()).contains("\"powerState\":\"on\"");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mockups")
  void everyActionAgainstThePublishedTree(String mockup) throws Exception {
    try (MockupServer server = MockupServer.start(mockup, "admin", PASSWORD)) {
      MockupFacts facts = new MockupFacts(server.mockup());

      BmcRun status = bmc(server, facts, "status");
      assertThat(status.exit()).as(status.err()).isZero();
      assertThat(status.json().path("powerState").asText())
          .isEqualToIgnoringCase(facts.powerState());

      BmcRun off = bmc(server, facts, "off");
      assertThat(off.exit()).as(off.err()).isZero();
      assertThat(off.json().path("powerState").asText()).isEqualTo("off");
      assertThat(off.json().path("forced").asBoolean()).isFalse();
      assertThat(served(server, facts)).isEqualTo("Off");

      BmcRun on = bmc(server, facts, "on");
      assertThat(on.exit()).as(on.err()).isZero();
      assertThat(on.json().path("powerState").asText()).isEqualTo("on");
      assertThat(served(server, facts)).isEqualTo("On");

      BmcRun forced = bmc(server, facts, "off", "--force");
      assertThat(forced.exit()).as(forced.err()).isZero();
      assertThat(forced.json().path("sent").get(0).asText()).isEqualTo("ForceOff");
      assertThat(served(server, facts)).isEqualTo("Off");
      assertThat(bmc(server, facts, "on").exit()).isZero();

      int resetsBefore = resets(server, facts).size();
      BmcRun cycle = bmc(server, facts, "cycle");
      assertThat(cycle.exit()).as(cycle.err()).isZero();
      assertThat(cycle.json().path("result").asText()).isEqualTo("accepted");
      List<String> cycled = resets(server, facts);
      assertThat(cycled).hasSizeGreaterThan(resetsBefore);
      assertThat(served(server, facts)).isEqualTo("On");

      BmcRun pxe = bmc(server, facts, "pxe");
      assertThat(pxe.exit()).as(pxe.err()).isZero();
      JsonNode boot = server.system(facts.target()).path("Boot");
      assertThat(boot.path("BootSourceOverrideTarget").asText()).isEqualTo("Pxe");
      assertThat(boot.path("BootSourceOverrideEnabled").asText()).isEqualTo("Once");

      BmcRun persistent = bmc(server, facts, "pxe", "--persistent");
      assertThat(persistent.exit()).as(persistent.err()).isZero();
      boot = server.system(facts.target()).path("Boot");
      assertThat(boot.path("BootSourceOverrideEnabled").asText()).isEqualTo("Continuous");

      BmcRun power = bmc(server, facts, "power");
      assertThat(power.exit()).as(power.err()).isZero();
      OptionalDouble watts = facts.watts();
      if (watts.isPresent()) {
        assertThat(power.json().path("watts").asDouble()).isEqualTo(watts.getAsDouble());
      } else {
        assertThat(power.json().path("watts").isNull()).as(power.out()).isTrue();
      }

      BmcRun inspect = bmc(server, facts, "inspect");
      assertThat(inspect.exit()).as(inspect.err()).isZero();
      JsonNode info = inspect.json();
      assertThat(info.path("serial").asText()).isEqualTo(facts.serial());
      assertThat(info.path("cpuCount").asInt()).isEqualTo(facts.cpuCount());
      assertThat(info.path("cpuModel").asText()).isEqualTo(facts.cpuModel());
      assertThat(info.path("memoryMiB").asLong()).isEqualTo(facts.memoryMiB());
      List<String> macs = new ArrayList<>();
      info.path("macAddresses").forEach(m -> macs.add(m.asText()));
      assertThat(macs).containsExactlyInAnyOrderElementsOf(facts.macs());

      // every reset the command sent was one the mockup allows, to the system addressed
      for (String type : resets(server, facts)) {
        assertThat(type).isIn(server.allowedResetTypes(facts.target()));
      }
    }
  }

  /** The ResetType of every reset POSTed to the target system, in order. */
  private static List<String> resets(MockupServer server, MockupFacts facts) {
    return server.requests().stream()
        .filter(r -> r.method().equals("POST"))
        .filter(r -> server.systemOfResetTarget(r.path()).isPresent())
        .peek(
            r ->
                assertThat(server.systemOfResetTarget(r.path()).orElseThrow())
                    .isEqualTo(facts.target()))
        .map(r -> r.body().path("ResetType").asText())
        .toList();
  }
}
