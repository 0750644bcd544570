package io.bamel.power.redfish.dmtf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.BootDevice;
import io.bamel.power.BootMode;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.HardwareInfo;
import io.bamel.power.PowerCommand;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOffMode;
import io.bamel.power.PowerResult;
import io.bamel.power.Sleeper;
import io.bamel.power.credentials.CredentialStore;
import io.bamel.power.redfish.RedfishConfig;
import io.bamel.power.redfish.RedfishDriver;
import io.bamel.power.testing.CredentialDirs;
import io.bamel.redfish.dmtf.DmtfFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Redfish driver against each of DMTF's published mockups, served unchanged by {@link
 * MockupServer} (which refuses any reset type or boot value the mockup does not allow): status, on,
 * off graceful and forced, cycle, PXE once and persistent, power draw and inspection, each compared
 * with what {@link MockupFacts} reads from the files. After every action, each reset body the
 * driver sent is checked against the mockup's own allowed values.
 */
class DmtfMockupContractIT {

  private static final String USER = "admin";
  private static final String PASSWORD = "dmtf-Mockup-pw";
  private static final String CREDENTIALS = "dmtf";

  @TempDir static Path dir;
  static CredentialStore store;

  @BeforeAll
  static void credentials() throws Exception {
    Path creds = CredentialDirs.write(dir.resolve("secrets"), CREDENTIALS, USER, PASSWORD);
    Files.writeString(creds.resolve(CredentialStore.ALLOWED_HOSTS), "http://127.0.0.1\n");
    store = new CredentialStore(dir.resolve("secrets"));
  }

  static Stream<String> mockups() {
    return DmtfFiles.MOCKUPS.stream();
  }

  /** A mockup served, its facts, and a driver pointed at its target system. */
  private record Bench(MockupServer server, MockupFacts facts, RedfishDriver driver)
      implements AutoCloseable {

    static Bench of(String mockup) throws Exception {
      MockupServer server = MockupServer.start(mockup, USER, PASSWORD);
      RedfishDriver driver =
          new RedfishDriver(
              store,
              RedfishConfig.defaults()
                  .withGracefulTimeout(Duration.ofSeconds(2))
                  .withPollInterval(Duration.ofMillis(20)),
              Clock.systemUTC(),
              Sleeper.SYSTEM);
      return new Bench(server, new MockupFacts(server.mockup()), driver);
    }

    /** The service root where it lists one system, else the target System URI. */
    BmcEndpoint endpoint() {
      String address = facts.systems().size() == 1 ? server.baseUrl() : server.url(facts.target());
      return BmcEndpoint.of(address, CREDENTIALS);
    }

    String served() {
      return server.system(facts.target()).path("PowerState").asText();
    }

    PowerResult run(PowerCommand command) throws PowerException {
      return driver.execute(command, endpoint(), deadline());
    }

    /** The ResetType of every reset POSTed, each checked against the mockup's allowed values. */
    List<String> resetsSent() {
      List<MockupServer.Recorded> posts =
          server.requests().stream()
              .filter(r -> r.method().equals("POST"))
              .filter(r -> server.systemOfResetTarget(r.path()).isPresent())
              .toList();
      for (MockupServer.Recorded post : posts) {
        String system = server.systemOfResetTarget(post.path()).orElseThrow();
        assertThat(system).as("a reset is sent to the system addressed").isEqualTo(facts.target());
        assertThat(post.body().size()).as("only ResetType in %s", post.body()).isEqualTo(1);
        assertThat(post.body().path("ResetType").asText())
            .as("ResetType sent to %s", post.path())
            .isIn(server.allowedResetTypes(system));
      }
      return posts.stream().map(p -> p.body().path("ResetType").asText()).toList();
    }

    @Override
    public void close() {
      driver.close();
      server.close();
    }
  }

  private static Deadline deadline() {
    return Deadline.in(Duration.ofSeconds(10));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mockups")
  void statusIsThePublishedPowerState(String mockup) throws Exception {
    try (Bench bench = Bench.of(mockup)) {
      String published = bench.facts().powerState();
      BmcPowerState read = bench.driver().bmcPowerState(bench.endpoint(), deadline());
      assertThat(read.wireName())
          .as("PowerState %s of %s", published, bench.facts().target())
          .isEqualToIgnoringCase(published);
      assertThat(read).isNotEqualTo(BmcPowerState.UNKNOWN);
      assertThat(bench.resetsSent()).isEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mockups")
  void oneSessionFromTheSessionServiceUsedForEveryRequestAndLoggedOut(String mockup)
      throws Exception {
    try (Bench bench = Bench.of(mockup)) {
      bench.driver().bmcPowerState(bench.endpoint(), deadline());
      bench.driver().inspect(bench.endpoint(), deadline());
      bench.driver().close();
      String sessions =
          bench
              .server()
              .mockup()
              .get(Mockup.ROOT)
              .path("Links")
              .path("Sessions")
              .path("@odata.id")
              .asText();
      List<MockupServer.Recorded> requests = bench.server().requests();
      assertThat(bench.server().requests("POST", sessions)).hasSize(1);
      for (MockupServer.Recorded request : requests) {
        assertThat(request.header("OData-Version"))
            .as("%s %s", request.method(), request.path())
            .isEqualTo("4.0");
        assertThat(request.header("Authorization")).as("no Basic auth beside a session").isNull();
        boolean open =
            request.path().equals(Mockup.ROOT) && request.method().equals("GET")
                || request.path().equals(sessions) && request.method().equals("POST");
        if (!open) {
          assertThat(request.header("X-Auth-Token"))
              .as("%s %s", request.method(), request.path())
              .isNotBlank();
        }
      }
      assertThat(requests.get(requests.size() - 1).method()).isEqualTo("DELETE");
      assertThat(bench.server().sessionCount()).as("logged out on close").isZero();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mockups")
  void forcedOffThenOn(String mockup) throws Exception {
    try (Bench bench = Bench.of(mockup)) {
      assertThat(bench.served()).isEqualTo("On");
      PowerResult off = bench.run(PowerCommand.off(PowerOffMode.FORCE));
      assertThat(bench.served()).isEqualTo("Off");
      assertThat(off.sent()).containsExactly("ForceOff");

      PowerResult on = bench.run(PowerCommand.on());
      assertThat(bench.served()).isEqualTo("On");
      assertThat(on.sent()).hasSize(1);
      assertThat(bench.driver().bmcPowerState(bench.endpoint(), deadline()))
          .isEqualTo(BmcPowerState.ON);
      assertThat(bench.resetsSent()).containsExactly("ForceOff", on.sent().get(0));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mockups")
  void onWhenOnSendsNothing(String mockup) throws Exception {
    try (Bench bench = Bench.of(mockup)) {
      PowerResult on = bench.run(PowerCommand.on());
      assertThat(on.sent()).isEmpty();
      assertThat(bench.resetsSent()).isEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mockups")
  void gracefulOff(String mockup) throws Exception {
    try (Bench bench = Bench.of(mockup)) {
      List<String> allowed = bench.server().allowedResetTypes(bench.facts().target());
      assertThat(allowed).as("the mockups offer a graceful off").contains("GracefulShutdown");
      PowerResult off = bench.run(PowerCommand.off(PowerOffMode.GRACEFUL));
      assertThat(off.forced()).isFalse();
      assertThat(off.sent()).containsExactly("GracefulShutdown");
      assertThat(bench.served()).isEqualTo("Off");
      assertThat(bench.resetsSent()).containsExactly("GracefulShutdown");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mockups")
  void cycleIsOneRestartOrOffThenOn(String mockup) throws Exception {
    try (Bench bench = Bench.of(mockup)) {
      List<String> allowed = bench.server().allowedResetTypes(bench.facts().target());
      PowerResult cycle = bench.run(PowerCommand.cycle());
      List<String> sent = bench.resetsSent();
      assertThat(sent).isEqualTo(cycle.sent());
      if (allowed.contains("PowerCycle") || allowed.contains("ForceRestart")) {
        assertThat(sent).hasSize(1);
        assertThat(sent.get(0)).isIn("PowerCycle", "ForceRestart");
      } else {
        assertThat(sent).hasSize(2);
        assertThat(sent.get(0)).isEqualTo("ForceOff");
      }
      assertThat(bench.served()).isEqualTo("On");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mockups")
  void pxeOnce(String mockup) throws Exception {
    pxe(mockup, false, "Once");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mockups")
  void pxePersistent(String mockup) throws Exception {
    pxe(mockup, true, "Continuous");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mockups")
  void pxeInUefiModeWhereTheMockupHasABootMode(String mockup) throws Exception {
    try (Bench bench = Bench.of(mockup)) {
      String uri = bench.facts().target();
      JsonNode published = bench.facts().system().path("Boot");
      PowerCommand command =
          PowerCommand.boot(new BootOverride(BootDevice.PXE, false, BootMode.UEFI));
      if (!published.has("BootSourceOverrideMode")) {
        // public-bladed: no mode to set; refused before any PATCH (the server would answer 400)
        assertThatThrownBy(() -> bench.run(command))
            .isInstanceOfSatisfying(
                PowerException.class,
                e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.UNSUPPORTED));
        assertThat(bench.server().requests("PATCH", uri)).isEmpty();
        return;
      }
      bench.run(command);
      JsonNode boot = bench.server().system(uri).path("Boot");
      assertThat(boot.path("BootSourceOverrideTarget").asText()).isEqualTo("Pxe");
      assertThat(boot.path("BootSourceOverrideMode").asText()).isEqualTo("UEFI");
      assertThat(bench.server().requests("PATCH", uri)).hasSize(1);
    }
  }

  private static void pxe(String mockup, boolean persistent, String enabled) throws Exception {
    try (Bench bench = Bench.of(mockup)) {
      List<String> targets = bench.facts().bootAllowable("BootSourceOverrideTarget");
      List<String> enabledValues = bench.facts().bootAllowable("BootSourceOverrideEnabled");
      boolean allowed =
          (targets.isEmpty() || targets.contains("Pxe"))
              && (enabledValues.isEmpty() || enabledValues.contains(enabled));
      PowerCommand command = PowerCommand.boot(new BootOverride(BootDevice.PXE, persistent, null));
      String uri = bench.facts().target();
      if (!allowed) {
        assertThatThrownBy(() -> bench.run(command))
            .isInstanceOfSatisfying(
                PowerException.class,
                e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.UNSUPPORTED));
        assertThat(bench.server().requests("PATCH", uri)).isEmpty();
        return;
      }
      PowerResult result = bench.run(command);
      List<MockupServer.Recorded> patches = bench.server().requests("PATCH", uri);
      assertThat(patches).hasSize(1);
      JsonNode boot = bench.server().system(uri).path("Boot");
      assertThat(boot.path("BootSourceOverrideTarget").asText()).isEqualTo("Pxe");
      assertThat(boot.path("BootSourceOverrideEnabled").asText()).isEqualTo(enabled);
      // the mode is sent only where the mockup publishes the modes it allows
      JsonNode sent = patches.get(0).body().path("Boot");
      if (bench.facts().bootAllowable("BootSourceOverrideMode").isEmpty()) {
        assertThat(sent.has("BootSourceOverrideMode")).as("%s", sent).isFalse();
      }
      assertThat(result.sent()).containsExactly("Boot Pxe " + enabled);
      assertThat(bench.resetsSent()).isEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mockups")
  void powerDrawIsThePublishedReading(String mockup) throws Exception {
    try (Bench bench = Bench.of(mockup)) {
      OptionalDouble expected = bench.facts().watts();
      OptionalDouble read = bench.driver().powerDraw(bench.endpoint(), deadline());
      assertThat(read).isEqualTo(expected);
      // and the same again from the sources found once
      assertThat(bench.driver().powerDraw(bench.endpoint(), deadline())).isEqualTo(expected);
    }
  }

  @Test
  void powerDrawReadsBothDataModelsAsPublished() throws Exception {
    // public-localstorage publishes only the deprecated Power resource, public-liquid-cooled-server
    // only EnvironmentMetrics/PowerSubsystem; public-rackmount1 both, with different readings.
    Map<String, Double> expected =
        Map.of(
            "public-localstorage", 344.0,
            "public-liquid-cooled-server", 374.0,
            "public-rackmount1", 374.0);
    for (Map.Entry<String, Double> e : expected.entrySet()) {
      try (Bench bench = Bench.of(e.getKey())) {
        MockupFacts facts = bench.facts();
        if (e.getKey().equals("public-localstorage")) {
          assertThat(facts.environmentMetricsWatts()).isEmpty();
          assertThat(facts.legacyPowerWatts()).hasValue(e.getValue());
        } else if (e.getKey().equals("public-liquid-cooled-server")) {
          assertThat(facts.legacyPowerWatts()).isEmpty();
          assertThat(facts.environmentMetricsWatts()).hasValue(e.getValue());
        } else {
          assertThat(facts.legacyPowerWatts()).hasValue(344.0);
          assertThat(facts.environmentMetricsWatts()).hasValue(e.getValue());
        }
        assertThat(bench.driver().powerDraw(bench.endpoint(), deadline()))
            .as(e.getKey())
            .hasValue(e.getValue());
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mockups")
  void inspectionMatchesTheFiles(String mockup) throws Exception {
    try (Bench bench = Bench.of(mockup)) {
      MockupFacts facts = bench.facts();
      HardwareInfo info = bench.driver().inspect(bench.endpoint(), deadline());
      assertThat(info.serial()).isEqualTo(facts.serial()).isNotNull();
      assertThat(info.uuid()).isEqualTo(facts.uuid());
      assertThat(info.manufacturer()).isEqualTo(facts.manufacturer());
      assertThat(info.model()).isEqualTo(facts.model());
      assertThat(info.cpuCount()).isEqualTo(facts.cpuCount());
      assertThat(info.cpuModel()).isEqualTo(facts.cpuModel());
      assertThat(info.memoryMiB()).isEqualTo(facts.memoryMiB());
      assertThat(info.gpus()).hasSize(facts.gpuCount());
      assertThat(info.macAddresses()).containsExactlyInAnyOrderElementsOf(facts.macs());
      assertThat(bench.resetsSent()).isEmpty();
    }
  }

  @Test
  void aServiceOfSeveralSystemsIsDrivenThroughTheSystemUriGiven() throws Exception {
    try (Bench bench = Bench.of("public-bladed")) {
      List<String> systems = bench.facts().systems();
      assertThat(systems).hasSizeGreaterThan(1);
      BmcEndpoint root = BmcEndpoint.of(bench.server().baseUrl(), CREDENTIALS);
      assertThatThrownBy(() -> bench.driver().bmcPowerState(root, deadline()))
          .isInstanceOfSatisfying(
              PowerException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(PowerException.Reason.INVALID_CONFIG);
                assertThat(e.getMessage()).contains("System URI");
              });

      bench.run(PowerCommand.off(PowerOffMode.FORCE));
      for (String system : systems) {
        assertThat(bench.server().system(system).path("PowerState").asText())
            .as(system)
            .isEqualTo(system.equals(bench.facts().target()) ? "Off" : "On");
      }
      assertThat(bench.resetsSent()).containsExactly("ForceOff");
    }
  }
}
