package io.bamel.power.redfish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.Backoff;
import io.bamel.power.BmcEndpoint;
import io.bamel.power.BootDevice;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.HardwareInfo;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOffMode;
import io.bamel.power.PowerState;
import io.bamel.power.Sleeper;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.TlsSettings;
import io.bamel.power.credentials.CredentialStore;
import io.bamel.power.sim.SimOperation;
import io.bamel.power.sim.SimProfile;
import io.bamel.power.sim.SimSystemConfig;
import io.bamel.power.sim.SimulatedBmcFleet;
import io.bamel.power.sim.SimulatedSystem;
import io.bamel.power.testing.CredentialDirs;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Redfish driver against simulated BMCs shaped like shipping firmware (the simulator's vendor
 * profiles): each test reproduces one finding of issue 16.
 */
class RedfishVendorProfilesIT {

  private static final String PASSWORD = "vendor-profiles-pw";

  @TempDir static Path dir;
  static SimulatedBmcFleet fleet;
  static Path caFile;
  static CredentialStore store;
  static int next;

  RedfishDriver driver;

  @BeforeAll
  static void startFleet() throws Exception {
    fleet = SimulatedBmcFleet.start(true);
    caFile = fleet.writeCaBundle(dir.resolve("ca.pem"));
    CredentialDirs.write(dir.resolve("secrets"), "bmc", "admin", PASSWORD);
    store = new CredentialStore(dir.resolve("secrets"));
  }

  @AfterAll
  static void stopFleet() {
    fleet.close();
  }

  @BeforeEach
  void setUp() {
    driver =
        new RedfishDriver(
            store,
            RedfishConfig.defaults()
                .withGracefulTimeout(Duration.ofMillis(600))
                .withPollInterval(Duration.ofMillis(50))
                .withBusyBackoff(new Backoff(Duration.ofMillis(20), Duration.ofMillis(200), 6)),
            Clock.systemUTC(),
            Sleeper.SYSTEM);
  }

  @AfterEach
  void tearDown() {
    driver.close();
  }

  private static SimulatedSystem add(SimProfile profile) {
    return fleet.add(
        "v" + next++,
        SimSystemConfig.defaults()
            .withCredentials("admin", PASSWORD)
            .withPowerDelay(Duration.ofMillis(150))
            .withProfile(profile));
  }

  private static BmcEndpoint endpoint(SimulatedSystem system) {
    return new BmcEndpoint(
        fleet.address(system.id()), "bmc", TlsSettings.caBundle(caFile), Map.of());
  }

  private static Deadline deadline() {
    return Deadline.in(Duration.ofSeconds(10));
  }

  // ------------------------------------------------------------ 2: graceful off is never a silent
  // force

  @Test
  void ilo5GracefulOffPressesThePowerButtonInsteadOfForcingOff() throws Exception {
    SimulatedSystem system = add(SimProfile.ILO5);
    system.forcePowerState(PowerState.ON);

    driver.powerOff(endpoint(system), PowerOffMode.GRACEFUL, deadline());

    assertThat(system.resets("PushPowerButton")).isEqualTo(1);
    assertThat(system.resets("ForceOff")).isZero();
    assertThat(system.powerState()).isEqualTo(PowerState.OFF);
  }

  @Test
  void supermicroGracefulOffUsesGracefulShutdownFromActionInfoDespiteTheMalformedInlineList()
      throws Exception {
    SimulatedSystem system = add(SimProfile.SUPERMICRO_X12);
    system.forcePowerState(PowerState.ON);

    driver.powerOff(endpoint(system), PowerOffMode.GRACEFUL, deadline());

    assertThat(system.resets("GracefulShutdown")).isEqualTo(1);
    assertThat(system.resets("ForceOff")).isZero();
  }

  @Test
  void aBmcWithoutAnyGracefulResetRefusesAGracefulOffAndSendsNothing() {
    SimulatedSystem system = add(SimProfile.DEFAULT);
    system.reconfigure(system.config().withResetTypes(List.of("On", "ForceOff", "ForceRestart")));
    system.forcePowerState(PowerState.ON);

    assertThatThrownBy(() -> driver.powerOff(endpoint(system), PowerOffMode.GRACEFUL, deadline()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(PowerException.Reason.UNSUPPORTED);
              assertThat(e.getMessage()).contains("graceful").contains("ForceOff");
            });
    assertThat(system.count(SimOperation.RESET)).isZero();
    assertThat(system.powerState()).isEqualTo(PowerState.ON);
  }

  // ------------------------------------------------------------ 3: ActionInfo

  @Test
  void openBmcCyclesWithPowerCycleFromActionInfo() throws Exception {
    SimulatedSystem system = add(SimProfile.OPENBMC);
    system.forcePowerState(PowerState.ON);

    driver.powerCycle(endpoint(system), deadline());

    assertThat(system.resets("PowerCycle")).isEqualTo(1);
    assertThat(system.count(SimOperation.RESET_REFUSED)).isZero();
  }

  @Test
  void openBmcGracefulOffUsesActionInfo() throws Exception {
    SimulatedSystem system = add(SimProfile.OPENBMC);
    system.forcePowerState(PowerState.ON);

    driver.powerOff(endpoint(system), PowerOffMode.GRACEFUL, deadline());

    assertThat(system.resets("GracefulShutdown")).isEqualTo(1);
  }

  // ------------------------------------------------------------ 4: power draw

  @Test
  void openBmcPowerDrawComesFromThePowerSubsystem() throws Exception {
    SimulatedSystem system = add(SimProfile.OPENBMC);
    system.forcePowerState(PowerState.ON);

    assertThat(driver.powerDraw(endpoint(system), deadline())).hasValue(250.0);
  }

  @Test
  void ilo5TrailingSlashLinksGiveAPowerDraw() throws Exception {
    SimulatedSystem system = add(SimProfile.ILO5);
    system.forcePowerState(PowerState.ON);

    assertThat(driver.powerDraw(endpoint(system), deadline())).hasValue(250.0);
  }

  @Test
  void aBladeReportsItsOwnDrawNotItsEnclosures() throws Exception {
    SimulatedSystem system = add(SimProfile.XCC.inBladeEnclosure());
    system.forcePowerState(PowerState.ON);

    assertThat(driver.powerDraw(endpoint(system), deadline())).hasValue(250.0);
  }

  // ------------------------------------------------------------ 5: boot override

  @Test
  void xccPersistentPxeFallsBackToOnce() throws Exception {
    SimulatedSystem system = add(SimProfile.XCC);

    driver.setBootDevice(endpoint(system), new BootOverride(BootDevice.PXE, true), deadline());

    assertThat(system.bootOverride()).containsExactly("Pxe", "Once");
  }

  @Test
  void supermicroKeepsTheBootModeTheSystemHas() throws Exception {
    SimulatedSystem system = add(SimProfile.SUPERMICRO_X12);
    assertThat(system.bootMode()).isEqualTo("UEFI");

    driver.setBootDevice(endpoint(system), BootOverride.pxeOnce(), deadline());

    assertThat(system.bootOverride()).containsExactly("Pxe", "Once");
    assertThat(system.bootMode()).isEqualTo("UEFI");
  }

  // ------------------------------------------------------------ 6: inspection

  @Test
  void inspectionListsEachMacOnceAndNotTheHostInterface() throws Exception {
    for (SimProfile profile : List.of(SimProfile.XCC, SimProfile.OPENBMC, SimProfile.IDRAC9)) {
      SimulatedSystem system = add(profile);
      HardwareInfo info = driver.inspect(endpoint(system), deadline());
      assertThat(info.macAddresses())
          .as(profile.name())
          .hasSize(profile.nics())
          .doesNotHaveDuplicates()
          .allMatch(m -> m.equals(m.toLowerCase(java.util.Locale.ROOT)));
    }
  }

  // ------------------------------------------------------------ 7: session without a token

  @Test
  void idrac8LoginWithoutATokenFallsBackToBasicAuth() throws Exception {
    SimulatedSystem system = add(SimProfile.IDRAC8);

    assertThat(driver.powerState(endpoint(system), deadline())).isEqualTo(PowerState.OFF);
    driver.powerOn(endpoint(system), deadline());

    assertThat(system.resets("On")).isEqualTo(1);
  }
}
