package io.bamel.power.redfish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

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
    driver = FastRedfishDrivers.fast(store, RedfishConfig.defaults(), Duration.ofMillis(600));
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
    system.forcePowerState(BmcPowerState.ON);

    PowerResult result =
        driver.execute(PowerCommand.off(PowerOffMode.GRACEFUL), endpoint(system), deadline());

    assertThat(result.sent()).containsExactly("PushPowerButton");
    assertThat(result.forced()).isFalse();
    assertThat(system.resets("PushPowerButton")).isEqualTo(1);
    assertThat(system.resets("ForceOff")).isZero();
    assertThat(system.powerState()).isEqualTo(BmcPowerState.OFF);
  }

  @Test
  void supermicroGracefulOffUsesGracefulShutdownFromActionInfoDespiteTheMalformedInlineList()
      throws Exception {
    SimulatedSystem system = add(SimProfile.SUPERMICRO_X12);
    system.forcePowerState(BmcPowerState.ON);

    PowerResult result =
        driver.execute(PowerCommand.off(PowerOffMode.GRACEFUL), endpoint(system), deadline());

    assertThat(result.sent()).containsExactly("GracefulShutdown");
    assertThat(system.resets("GracefulShutdown")).isEqualTo(1);
    assertThat(system.resets("ForceOff")).isZero();
  }

  @Test
  void aBmcWithoutAnyGracefulResetRefusesAGracefulOffAndSendsNothing() {
    SimulatedSystem system = add(SimProfile.DEFAULT);
    system.reconfigure(system.config().withResetTypes(List.of("On", "ForceOff", "ForceRestart")));
    system.forcePowerState(BmcPowerState.ON);

    assertThatThrownBy(() -> driver.powerOff(endpoint(system), PowerOffMode.GRACEFUL, deadline()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(PowerException.Reason.UNSUPPORTED);
              assertThat(e.getMessage()).contains("graceful").contains("ForceOff");
            });
    assertThat(system.count(SimOperation.RESET)).isZero();
    assertThat(system.powerState()).isEqualTo(BmcPowerState.ON);
  }

  // ------------------------------------------------------------ 3: ActionInfo

  @Test
  void openBmcCyclesWithPowerCycleFromActionInfo() throws Exception {
    SimulatedSystem system = add(SimProfile.OPENBMC);
    system.forcePowerState(BmcPowerState.ON);

    PowerResult result = driver.execute(PowerCommand.cycle(), endpoint(system), deadline());

    assertThat(result.sent()).containsExactly("PowerCycle");
    assertThat(system.resets("PowerCycle")).isEqualTo(1);
    assertThat(system.count(SimOperation.RESET_REFUSED)).isZero();
  }

  @Test
  void actionInfoIsReadOncePerSessionAndAgainAfterANewLogin() throws Exception {
    SimulatedSystem system = add(SimProfile.OPENBMC);
    system.forcePowerState(BmcPowerState.ON);
    driver.powerOff(endpoint(system), PowerOffMode.FORCE, deadline());
    driver.powerOn(endpoint(system), deadline());
    awaitOn(system);
    driver.powerCycle(endpoint(system), deadline());
    assertThat(system.count(SimOperation.ACTION_INFO)).isEqualTo(1);

    system.expireSessions(); // the BMC restarted: a new session, a new look at the reset types
    awaitOn(system);
    driver.powerOff(endpoint(system), PowerOffMode.FORCE, deadline());
    assertThat(system.count(SimOperation.LOGIN)).isEqualTo(2);
    assertThat(system.count(SimOperation.ACTION_INFO)).isEqualTo(2);
  }

  @Test
  void idrac8CyclesOffThenOnAndShutsDownWithThePowerButton() throws Exception {
    SimulatedSystem system = add(SimProfile.IDRAC8);
    system.forcePowerState(BmcPowerState.ON);

    PowerResult cycle = driver.execute(PowerCommand.cycle(), endpoint(system), deadline());
    assertThat(cycle.sent()).containsExactly("ForceOff", "On");
    assertThat(cycle.notes()).anyMatch(n -> n.contains("off, then on"));
    awaitOn(system);

    PowerResult off =
        driver.execute(PowerCommand.off(PowerOffMode.GRACEFUL), endpoint(system), deadline());
    assertThat(off.sent()).containsExactly("PushPowerButton");
    assertThat(system.powerState()).isEqualTo(BmcPowerState.OFF);
  }

  private void awaitOn(SimulatedSystem system) throws InterruptedException {
    for (int i = 0; i < 100 && system.powerState() != BmcPowerState.ON; i++) {
      Thread.sleep(20);
    }
    assertThat(system.powerState()).isEqualTo(BmcPowerState.ON);
  }

  @Test
  void openBmcGracefulOffUsesActionInfo() throws Exception {
    SimulatedSystem system = add(SimProfile.OPENBMC);
    system.forcePowerState(BmcPowerState.ON);

    driver.powerOff(endpoint(system), PowerOffMode.GRACEFUL, deadline());

    assertThat(system.resets("GracefulShutdown")).isEqualTo(1);
  }

  // ------------------------------------------------------------ 4: power draw

  @Test
  void openBmcPowerDrawComesFromThePowerSubsystem() throws Exception {
    SimulatedSystem system = add(SimProfile.OPENBMC);
    system.forcePowerState(BmcPowerState.ON);

    assertThat(driver.powerDraw(endpoint(system), deadline())).hasValue(250.0);
  }

  @Test
  void idrac9PowerDrawComesFromEnvironmentMetricsAndLaterReadsGoStraightThere() throws Exception {
    SimulatedSystem system = add(SimProfile.IDRAC9);
    system.forcePowerState(BmcPowerState.ON);
    assertThat(driver.powerDraw(endpoint(system), deadline())).hasValue(250.0);
    long systemReads = system.count(SimOperation.SYSTEM);
    long powerReads = system.count(SimOperation.POWER);

    system.forcePowerState(BmcPowerState.OFF);
    assertThat(driver.powerDraw(endpoint(system), deadline())).hasValue(6.0);

    assertThat(system.count(SimOperation.SYSTEM)).isEqualTo(systemReads);
    assertThat(system.count(SimOperation.POWER)).isEqualTo(powerReads + 1);
  }

  @Test
  void ilo5TrailingSlashLinksGiveAPowerDraw() throws Exception {
    SimulatedSystem system = add(SimProfile.ILO5);
    system.forcePowerState(BmcPowerState.ON);

    assertThat(driver.powerDraw(endpoint(system), deadline())).hasValue(250.0);
  }

  @Test
  void aBladeReportsItsOwnDrawNotItsEnclosures() throws Exception {
    SimulatedSystem system = add(SimProfile.XCC.inBladeEnclosure());
    system.forcePowerState(BmcPowerState.ON);

    assertThat(driver.powerDraw(endpoint(system), deadline())).hasValue(250.0);
  }

  // ------------------------------------------------------------ 5: boot override

  @Test
  void xccPersistentPxeFallsBackToOnce() throws Exception {
    SimulatedSystem system = add(SimProfile.XCC);

    PowerResult result =
        driver.execute(
            PowerCommand.boot(new BootOverride(BootDevice.PXE, true)),
            endpoint(system),
            deadline());

    assertThat(system.bootOverride()).containsExactly("Pxe", "Once");
    assertThat(result.sent()).containsExactly("Boot Pxe Once");
    assertThat(result.notes()).singleElement().asString().contains("next boot only");
    assertThat(system.count(SimOperation.PRECONDITION_MISSING))
        .as("the body's @odata.etag went as If-Match")
        .isZero();
  }

  @Test
  void aModeAskedForIsSetWhereTheBmcOffersIt() throws Exception {
    SimulatedSystem system = add(SimProfile.SUPERMICRO_X12);

    driver.setBootDevice(
        endpoint(system), new BootOverride(BootDevice.PXE, false, BootMode.LEGACY), deadline());

    assertThat(system.bootMode()).isEqualTo("Legacy");
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
  void inspectionReadsGpusBiosAndTheIdentityOfTheSystem() throws Exception {
    SimulatedSystem system = add(SimProfile.IDRAC9);

    HardwareInfo info = driver.inspect(endpoint(system), deadline());

    assertThat(info.manufacturer()).isEqualTo("Dell Inc.");
    assertThat(info.model()).isEqualTo("PowerEdge R750");
    assertThat(info.serial()).isEqualTo("SIM-" + system.id().toUpperCase(java.util.Locale.ROOT));
    assertThat(info.biosVersion()).isEqualTo("1.10.2");
    assertThat(info.uuid()).isNotBlank();
    assertThat(info.cpuCount()).isEqualTo(2);
    assertThat(info.cpuModel()).isEqualTo("Simulated CPU 32-Core");
    assertThat(info.memoryMiB()).isEqualTo(256L * 1024);
    assertThat(info.gpus())
        .containsExactly(
            new HardwareInfo.Gpu("NVIDIA Corporation", "NVIDIA A100-PCIE-40GB"),
            new HardwareInfo.Gpu("NVIDIA Corporation", "NVIDIA A100-PCIE-40GB"));
  }

  @Test
  void inspectionListsEachMacOnceAndNotTheHostInterface() throws Exception {
    for (SimProfile profile :
        List.of(SimProfile.XCC, SimProfile.OPENBMC, SimProfile.IDRAC9, SimProfile.SUPERMICRO_X12)) {
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

    assertThat(driver.bmcPowerState(endpoint(system), deadline())).isEqualTo(BmcPowerState.OFF);
    driver.powerOn(endpoint(system), deadline());

    assertThat(system.resets("On")).isEqualTo(1);
    assertThat(system.count(SimOperation.LOGIN)).as("one login, not one per call").isEqualTo(1);
    assertThat(system.sessionCount()).as("the token-less session was deleted").isZero();
  }

  // ------------------------------------------------------------ every profile end to end

  static List<SimProfile> profiles() {
    List<SimProfile> all = new java.util.ArrayList<>(SimProfile.ALL);
    all.add(SimProfile.IDRAC9.inBladeEnclosure());
    return all;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("profiles")
  void everyProfileCanBeSwitchedBootedInspectedAndMetered(SimProfile profile) throws Exception {
    SimulatedSystem system = add(profile);
    BmcEndpoint endpoint = endpoint(system);

    driver.setBootDevice(endpoint, BootOverride.pxeOnce(), deadline());
    driver.powerOn(endpoint, deadline());
    awaitOn(system);
    assertThat(driver.powerDraw(endpoint, deadline())).hasValue(250.0);
    driver.powerCycle(endpoint, deadline());
    awaitOn(system);
    driver.powerOff(endpoint, PowerOffMode.GRACEFUL, deadline());
    HardwareInfo info = driver.inspect(endpoint, deadline());

    assertThat(system.powerState()).isEqualTo(BmcPowerState.OFF);
    assertThat(system.bootOverride()).containsExactly("Pxe", "Once");
    assertThat(system.count(SimOperation.RESET_REFUSED)).isZero();
    assertThat(info.macAddresses()).hasSize(profile.nics());
    assertThat(info.gpus()).hasSize(profile.gpus().size());
  }
}
