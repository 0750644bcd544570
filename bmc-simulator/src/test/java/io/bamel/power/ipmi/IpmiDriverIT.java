package io.bamel.power.ipmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.PowerCommand;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOffMode;
import io.bamel.power.PowerResult;
import io.bamel.power.Sleeper;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.TransientPowerException;
import io.bamel.power.credentials.CredentialStore;
import io.bamel.power.process.SystemProcessRunner;
import io.bamel.power.sim.IpmiSimulator;
import io.bamel.power.testing.CredentialDirs;
import io.bamel.power.testing.IpmiTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The IPMI driver with the real ipmitool against the real ipmi_sim. */
class IpmiDriverIT {

  private static final String PASSWORD = "Ipmi-s3cret-7781";

  @TempDir static Path dir;
  static IpmiSimulator sim;
  static CredentialStore store;

  IpmiDriver driver;

  @BeforeAll
  static void start() throws Exception {
    IpmiTools.require();
    sim = IpmiSimulator.start(dir.resolve("sim"), "admin", PASSWORD);
    CredentialDirs.write(dir.resolve("secrets"), "ipmi-ok", "admin", PASSWORD);
    CredentialDirs.write(dir.resolve("secrets"), "ipmi-bad", "admin", "wrong-password");
    store = new CredentialStore(dir.resolve("secrets"));
  }

  @AfterAll
  static void stop() throws Exception {
    if (sim != null) {
      sim.close();
    }
  }

  @BeforeEach
  void setUp() throws IOException {
    sim.setPoweredOn(false);
    driver = driver(IpmiConfig.defaults().withMinInterval(Duration.ofMillis(20)));
  }

  @org.junit.jupiter.api.AfterEach
  void closeDriver() {
    driver.close();
  }

  private static IpmiDriver driver(IpmiConfig config) {
    return new IpmiDriver(
        store,
        config.withGraceful(Duration.ofSeconds(2), Duration.ofMillis(100)),
        new SystemProcessRunner(),
        Clock.systemUTC(),
        Sleeper.SYSTEM);
  }

  private static BmcEndpoint endpoint(String credentials) {
    return BmcEndpoint.of(sim.address(), credentials);
  }

  private static Deadline deadline() {
    return Deadline.in(Duration.ofSeconds(20));
  }

  @Test
  void readsAndChangesThePowerState() throws Exception {
    BmcEndpoint bmc = endpoint("ipmi-ok");
    assertThat(driver.bmcPowerState(bmc, deadline())).isEqualTo(BmcPowerState.OFF);

    driver.powerOn(bmc, deadline());
    assertThat(sim.poweredOn()).isTrue();
    assertThat(driver.bmcPowerState(bmc, deadline())).isEqualTo(BmcPowerState.ON);

    int before = sim.powerSets().size();
    driver.powerCycle(bmc, deadline()); // ipmi_sim switches off, then on a moment later
    Instant until = Instant.now().plus(Duration.ofSeconds(10));
    while (driver.bmcPowerState(bmc, deadline()) != BmcPowerState.ON
        || !sim.powerSets().subList(before, sim.powerSets().size()).contains("1")) {
      assertThat(Instant.now()).as("on again after the cycle").isBefore(until);
      Thread.sleep(100);
    }
    assertThat(sim.powerSets().subList(before, sim.powerSets().size()))
        .as("the power values ipmi_sim set during the cycle")
        .containsSubsequence("0", "1");

    driver.powerOff(bmc, PowerOffMode.FORCE, deadline());
    assertThat(sim.poweredOn()).isFalse();
    assertThat(driver.bmcPowerState(bmc, deadline())).isEqualTo(BmcPowerState.OFF);
  }

  @Test
  void aRefusedSoftOffIsNeverAHardOffUnlessForceIsAskedFor() throws Exception {
    sim.setPoweredOn(true); // ipmi_sim answers "soft" with "Unspecified error"
    assertThatThrownBy(
            () -> driver.powerOff(endpoint("ipmi-ok"), PowerOffMode.GRACEFUL, deadline()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(PowerException.Reason.UNSUPPORTED);
              assertThat(e.getMessage()).contains("soft", "forced");
            });
    assertThat(sim.poweredOn()).isTrue();

    PowerResult forced =
        driver.execute(PowerCommand.off(PowerOffMode.FORCE), endpoint("ipmi-ok"), deadline());
    assertThat(forced.sent()).containsExactly("power off");
    assertThat(sim.poweredOn()).isFalse();
  }

  @Test
  void theNativeClientAndTheIpmitoolFallbackReadAndSwitchAlike() throws Exception {
    BmcEndpoint viaNative = endpoint("ipmi-ok");
    BmcEndpoint viaIpmitool =
        endpoint("ipmi-ok").withOption(IpmiDriver.OPTION_IMPLEMENTATION, "ipmitool");
    assertThat(driver.bmcPowerState(viaNative, deadline())).isEqualTo(BmcPowerState.OFF);
    assertThat(driver.bmcPowerState(viaIpmitool, deadline())).isEqualTo(BmcPowerState.OFF);
    driver.powerOn(viaNative, deadline());
    assertThat(driver.bmcPowerState(viaIpmitool, deadline())).isEqualTo(BmcPowerState.ON);
    driver.powerOff(viaIpmitool, PowerOffMode.FORCE, deadline());
    assertThat(driver.bmcPowerState(viaNative, deadline())).isEqualTo(BmcPowerState.OFF);
    assertThatThrownBy(
            () ->
                driver.bmcPowerState(
                    endpoint("ipmi-ok").withOption(IpmiDriver.OPTION_IMPLEMENTATION, "openipmi"),
                    deadline()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.INVALID_CONFIG));
  }

  @Test
  void cipherSuiteZeroNeedsACredentialThatAllowsIt() throws Exception {
    // suite 0 sends nothing authenticated: refused before any packet unless the credential's
    // allowed-hosts holds insecure-skip-verify; ipmi_sim accepts it then, as ipmitool -C 0 does
    BmcEndpoint zero = endpoint("ipmi-ok").withOption(IpmiDriver.OPTION_CIPHER_SUITE, "0");
    assertThatThrownBy(() -> driver.bmcPowerState(zero, deadline()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.NOT_ALLOWED));
    CredentialDirs.write(dir.resolve("secrets"), "ipmi-zero", "admin", PASSWORD);
    Files.writeString(
        dir.resolve("secrets").resolve("ipmi-zero").resolve("allowed-hosts"),
        "127.0.0.1\ninsecure-skip-verify\n");
    BmcEndpoint allowed = endpoint("ipmi-zero").withOption(IpmiDriver.OPTION_CIPHER_SUITE, "0");
    sim.setPoweredOn(true);
    assertThat(driver.bmcPowerState(allowed, deadline())).isEqualTo(BmcPowerState.ON);
  }

  @Test
  void aCipherSuiteTheBmcRefusesIsTerminalAndSaysSo() {
    // ipmi_sim has no SHA-256: it refuses suite 17 in its open-session answer
    BmcEndpoint suite17 = endpoint("ipmi-ok").withOption(IpmiDriver.OPTION_CIPHER_SUITE, "17");
    Instant start = Instant.now();
    assertThatThrownBy(() -> driver.bmcPowerState(suite17, deadline()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(PowerException.Reason.INVALID_CONFIG);
              assertThat(e.getMessage()).contains("cipher suite 17");
              assertThat(e.getMessage()).containsIgnoringCase("open session");
            });
    assertThat(Duration.between(start, Instant.now())).isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void anUnknownUserIsTerminalAndSaysSo() throws Exception {
    CredentialDirs.write(dir.resolve("secrets"), "ipmi-nobody", "nobody", PASSWORD);
    assertThatThrownBy(() -> driver.bmcPowerState(endpoint("ipmi-nobody"), deadline()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(PowerException.Reason.BAD_CREDENTIALS);
              assertThat(e.getMessage()).contains("does not know the user");
            });
  }

  @Test
  void anOperatorPrivilegeIsPassedThroughAndWorks() throws Exception {
    BmcEndpoint operator = endpoint("ipmi-ok").withOption(IpmiDriver.OPTION_PRIVILEGE, "operator");
    driver.powerOn(operator, deadline());
    assertThat(driver.bmcPowerState(operator, deadline())).isEqualTo(BmcPowerState.ON);
  }

  @Test
  void cycleOfASystemThatIsOffSwitchesItOn() throws Exception {
    driver.powerCycle(endpoint("ipmi-ok"), deadline());
    assertThat(sim.poweredOn()).isTrue();
  }

  @Test
  void setsThePxeBootDevice() throws Exception {
    driver.setBootDevice(endpoint("ipmi-ok"), BootOverride.pxeOnce(), deadline());
    assertThat(sim.bootDevice()).isEqualTo("pxe");
  }

  @Test
  void noDcmiMeansNoPowerReading() throws Exception {
    assertThat(driver.powerDraw(endpoint("ipmi-ok"), deadline())).isEmpty();
  }

  @Test
  void aWrongPasswordIsTerminalWithinSeconds() {
    Instant start = Instant.now();
    assertThatThrownBy(() -> driver.bmcPowerState(endpoint("ipmi-bad"), deadline()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(PowerException.Reason.BAD_CREDENTIALS);
              assertThat(e.getMessage())
                  .contains("refused the password")
                  .doesNotContain("wrong-password");
            });
    assertThat(Duration.between(start, Instant.now())).isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void aStuckCallIsKilledAtItsTimeoutAndThePasswordIsNeverInArgv() throws Exception {
    IpmiDriver patient =
        driver(
            IpmiConfig.defaults()
                .withImplementation(IpmiImplementation.IPMITOOL)
                .withRetransmit(Duration.ofSeconds(2), 10)
                .withCommandTimeout(Duration.ofMillis(2500)));
    sim.freeze();
    try {
      CompletableFuture<Throwable> call =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  patient.bmcPowerState(endpoint("ipmi-ok"), deadline());
                  return null;
                } catch (PowerException e) {
                  return e;
                }
              });
      List<String> seen = new ArrayList<>();
      Instant until = Instant.now().plus(Duration.ofSeconds(2));
      while (Instant.now().isBefore(until) && !call.isDone()) {
        seen.addAll(ipmitoolCommandLines());
        Thread.sleep(50);
      }
      assertThat(seen).as("ipmitool was running").isNotEmpty();
      assertThat(seen).noneMatch(line -> line.contains(PASSWORD));
      assertThat(seen).allMatch(line -> line.contains(" -E "));

      Throwable failure = call.get();
      assertThat(failure)
          .isInstanceOfSatisfying(
              TransientPowerException.class,
              e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.TIMEOUT));
      Thread.sleep(200);
      assertThat(ipmitoolCommandLines()).as("no ipmitool left running").isEmpty();
    } finally {
      sim.thaw();
    }
    assertThat(driver.bmcPowerState(endpoint("ipmi-ok"), deadline())).isEqualTo(BmcPowerState.OFF);
  }

  /** The command lines of the running ipmitool processes aimed at this test's simulator. */
  private static List<String> ipmitoolCommandLines() throws IOException {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path proc : procs.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
        try {
          String cmdline =
              new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8)
                  .replace('\0', ' ');
          if (cmdline.contains("ipmitool") && cmdline.contains(String.valueOf(sim.port()))) {
            lines.add(cmdline);
          }
        } catch (IOException e) {
          // the process ended meanwhile
        }
      }
    }
    return lines;
  }
}
