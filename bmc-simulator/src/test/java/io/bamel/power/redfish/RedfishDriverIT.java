package io.bamel.power.redfish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.HardwareInfo;
import io.bamel.power.PowerCommand;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOffMode;
import io.bamel.power.PowerResult;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.TlsSettings;
import io.bamel.power.TransientPowerException;
import io.bamel.power.credentials.CredentialStore;
import io.bamel.power.sim.SimOperation;
import io.bamel.power.sim.SimSystemConfig;
import io.bamel.power.sim.SimulatedBmcFleet;
import io.bamel.power.sim.SimulatedSystem;
import io.bamel.power.testing.CredentialDirs;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.threeten.extra.MutableClock;

/** The Redfish driver against the simulated BMC fleet over self-signed TLS. */
class RedfishDriverIT {

  private static final String PASSWORD = "s3cret-Redfish-pw";
  private static final Duration DELAY = Duration.ofMillis(300);

  @TempDir static Path dir;
  static SimulatedBmcFleet fleet;
  static Path caFile;
  static CredentialStore store;

  RedfishDriver driver;
  SimulatedSystem system;
  String id;
  static int next;

  @BeforeAll
  static void startFleet() throws Exception {
    fleet = SimulatedBmcFleet.start(true);
    caFile = fleet.writeCaBundle(dir.resolve("ca.pem"));
    Path bmcA = CredentialDirs.write(dir.resolve("secrets"), "bmc-a", "admin", PASSWORD);
    // The plain-HTTP fleet of one test and the insecure opt-in of another need their allowance.
    java.nio.file.Files.writeString(
        bmcA.resolve(CredentialStore.ALLOWED_HOSTS), "http://127.0.0.1\ninsecure-skip-verify\n");
    store = new CredentialStore(dir.resolve("secrets"));
  }

  @AfterAll
  static void stopFleet() {
    fleet.close();
  }

  @BeforeEach
  void setUp() {
    driver = FastRedfishDrivers.fast(store, RedfishConfig.defaults(), Duration.ofMillis(700));
    id = "sys-" + next++;
    system = fleet.add(id, config());
  }

  @AfterEach
  void tearDown() {
    driver.close();
  }

  private static SimSystemConfig config() {
    return SimSystemConfig.defaults().withCredentials("admin", PASSWORD).withPowerDelay(DELAY);
  }

  private BmcEndpoint endpoint() {
    return new BmcEndpoint(
        fleet.address(id), "bmc-a", TlsSettings.caBundle(caFile), java.util.Map.of());
  }

  private static Deadline deadline() {
    return Deadline.in(Duration.ofSeconds(10));
  }

  private void awaitState(BmcPowerState expected) throws Exception {
    Deadline until = Deadline.in(Duration.ofSeconds(5));
    while (driver.bmcPowerState(endpoint(), deadline()) != expected) {
      assertThat(until.expired()).as("state %s in time", expected).isFalse();
      Thread.sleep(50);
    }
  }

  @Test
  void discoversTheSystemFromTheServiceRootAndReusesOneSession() throws Exception {
    assertThat(driver.bmcPowerState(endpoint(), deadline())).isEqualTo(BmcPowerState.OFF);
    assertThat(driver.bmcPowerState(endpoint(), deadline())).isEqualTo(BmcPowerState.OFF);

    assertThat(system.count(SimOperation.SERVICE_ROOT)).isEqualTo(1);
    assertThat(system.count(SimOperation.SYSTEMS)).isEqualTo(1);
    assertThat(system.count(SimOperation.LOGIN)).isEqualTo(1);
    assertThat(system.count(SimOperation.SYSTEM)).isEqualTo(2);
    assertThat(system.count(SimOperation.NO_ODATA_VERSION)).isZero();
  }

  @Test
  void usesASystemUriDirectly() throws Exception {
    BmcEndpoint direct =
        new BmcEndpoint(
            fleet.systemUri(id), "bmc-a", TlsSettings.caBundle(caFile), java.util.Map.of());
    assertThat(driver.bmcPowerState(direct, deadline())).isEqualTo(BmcPowerState.OFF);
    assertThat(system.count(SimOperation.SYSTEMS)).isZero();
  }

  @Test
  void powersOnThroughTheTransitionalStateAndNeverTwice() throws Exception {
    system.reconfigure(config().withPowerDelay(Duration.ofMillis(1500)));
    driver.powerOn(endpoint(), deadline());
    assertThat(driver.bmcPowerState(endpoint(), deadline())).isEqualTo(BmcPowerState.POWERING_ON);
    driver.powerOn(endpoint(), deadline()); // already heading there: no second reset

    awaitState(BmcPowerState.ON);
    driver.powerOn(endpoint(), deadline());
    assertThat(system.resets("On")).isEqualTo(1);
    assertThat(system.count(SimOperation.RESET_REFUSED)).isZero();
  }

  @Test
  void concurrentPowerOnsResultInOneReset() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Callable<Void>> calls = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        calls.add(
            () -> {
              driver.powerOn(endpoint(), deadline());
              return null;
            });
      }
      for (Future<Void> f : pool.invokeAll(calls)) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    assertThat(system.resets("On")).isEqualTo(1);
    awaitState(BmcPowerState.ON);
  }

  @Test
  void renewsAnExpiredSessionOnce() throws Exception {
    driver.bmcPowerState(endpoint(), deadline());
    system.expireSessions();

    assertThat(driver.bmcPowerState(endpoint(), deadline())).isEqualTo(BmcPowerState.OFF);
    assertThat(system.count(SimOperation.LOGIN)).isEqualTo(2);
    assertThat(system.count(SimOperation.UNAUTHORIZED)).isEqualTo(1);
  }

  @Test
  void sessionsExpireByIdleTimeout() throws Exception {
    MutableClock clock = MutableClock.of(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    try (SimulatedBmcFleet own = SimulatedBmcFleet.start(false, 0, clock)) {
      SimulatedSystem idle = own.add("idle", config().withSessionTimeout(Duration.ofMinutes(30)));
      BmcEndpoint plain = BmcEndpoint.of(own.address("idle"), "bmc-a");
      driver.bmcPowerState(plain, deadline());
      clock.add(Duration.ofMinutes(29));
      driver.bmcPowerState(plain, deadline());
      assertThat(idle.count(SimOperation.LOGIN)).isEqualTo(1);

      clock.add(Duration.ofMinutes(31));
      assertThat(driver.bmcPowerState(plain, deadline())).isEqualTo(BmcPowerState.OFF);
      assertThat(idle.count(SimOperation.LOGIN)).isEqualTo(2);
      assertThat(idle.count(SimOperation.UNAUTHORIZED)).isEqualTo(1);
    }
  }

  @Test
  void fallsBackToBasicAuthWithoutSessionService() throws Exception {
    system.reconfigure(config().withAuth(false, true));
    driver.powerOn(endpoint(), deadline());
    assertThat(system.count(SimOperation.LOGIN)).isZero();
    assertThat(system.resets("On")).isEqualTo(1);
  }

  @Test
  void retriesBusyAnswers() throws Exception {
    system.faults().busyNext(2);
    driver.powerOn(endpoint(), deadline());
    assertThat(system.resets("On")).isEqualTo(1);
    assertThat(system.count(SimOperation.FAULT)).isEqualTo(2);

    system.faults().failNext(2, 503);
    assertThat(driver.bmcPowerState(endpoint(), deadline()))
        .isIn(BmcPowerState.POWERING_ON, BmcPowerState.ON);
  }

  @Test
  void retries503OnTheResetPost() throws Exception {
    system.faults().busyNext(2, 503);

    driver.powerOn(endpoint(), deadline());

    assertThat(system.count(SimOperation.FAULT)).isEqualTo(2);
    assertThat(system.resets("On")).isEqualTo(1);
    assertThat(system.powerState()).isIn(BmcPowerState.POWERING_ON, BmcPowerState.ON);
  }

  @Test
  void a409ForTheStateAlreadyReachedIsSuccessWithoutARetry() throws Exception {
    system.reconfigure(config().withAlreadyInStateStatus(409));
    system.forcePowerState(BmcPowerState.ON);
    system.faults().staleStateNext(1, BmcPowerState.OFF); // the driver reads a stale "Off"

    driver.powerOn(endpoint(), deadline());

    assertThat(system.count(SimOperation.RESET_REFUSED)).as("one POST, answered 409").isEqualTo(1);
    assertThat(system.resets("On")).isZero();
    assertThat(system.powerState()).isEqualTo(BmcPowerState.ON);
  }

  @Test
  void aCallStillUnansweredAtItsDeadlineIsCutOffAsATransientTimeout() throws Exception {
    driver.bmcPowerState(endpoint(), deadline()); // discovery and login, without latency
    system.faults().latency(Duration.ofSeconds(3));
    Duration timeout = Duration.ofMillis(500);
    try {
      Instant start = Instant.now();
      assertThatThrownBy(() -> driver.bmcPowerState(endpoint(), Deadline.in(timeout)))
          .isInstanceOfSatisfying(
              TransientPowerException.class,
              e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.TIMEOUT));
      assertThat(Duration.between(start, Instant.now()))
          .as("ended at the deadline, not at the answer 3 s later")
          .isLessThan(timeout.plus(Duration.ofSeconds(1)));
    } finally {
      system.faults().clear();
    }
  }

  @Test
  void aPersistent5xxIsTransient() {
    system.faults().failNext(1000, 500);
    assertThatThrownBy(() -> driver.bmcPowerState(endpoint(), deadline()))
        .isInstanceOf(TransientPowerException.class);
    system.faults().clear();
  }

  @Test
  void aReadWhoseConnectionDropsIsSentOnceMoreOnANewConnection() throws Exception {
    driver.bmcPowerState(endpoint(), deadline());
    system.faults().dropNext(1);
    assertThat(driver.bmcPowerState(endpoint(), deadline())).isEqualTo(BmcPowerState.OFF);
    assertThat(system.count(SimOperation.FAULT)).isEqualTo(1);
  }

  @Test
  void aReadDroppedTwiceIsTransientAndTheNextCallWorks() throws Exception {
    driver.bmcPowerState(endpoint(), deadline());
    system.faults().dropNext(2);
    assertThatThrownBy(() -> driver.bmcPowerState(endpoint(), deadline()))
        .isInstanceOfSatisfying(
            TransientPowerException.class,
            e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.UNREACHABLE));
    assertThat(driver.bmcPowerState(endpoint(), deadline())).isEqualTo(BmcPowerState.OFF);
  }

  @Test
  void aResetWhoseConnectionDropsAfterItWasSentIsNotSentAgain() throws Exception {
    driver.bmcPowerState(endpoint(), deadline());
    system.faults().dropAfterNextActions(1); // the BMC carries the reset out, then hangs up
    assertThatThrownBy(() -> driver.powerOn(endpoint(), deadline()))
        .isInstanceOfSatisfying(
            TransientPowerException.class,
            e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.UNREACHABLE));
    assertThat(system.resets("On")).as("sent once, not repeated").isEqualTo(1);
    assertThat(system.count(SimOperation.RESET_REFUSED)).isZero();
  }

  @Test
  void aGracefulOffWhereThereIsNoGracefulResetFailsAndSendsNothingButForceWorks() throws Exception {
    system.reconfigure(config().withResetTypes(List.of("On", "ForceOff", "ForceRestart")));
    system.forcePowerState(BmcPowerState.ON);

    assertThatThrownBy(() -> driver.powerOff(endpoint(), PowerOffMode.GRACEFUL, deadline()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.UNSUPPORTED));
    assertThat(system.count(SimOperation.RESET)).isZero();

    PowerResult result =
        driver.execute(PowerCommand.off(PowerOffMode.FORCE), endpoint(), deadline());
    assertThat(result.sent()).containsExactly("ForceOff");
    assertThat(result.forced()).isFalse();
    assertThat(system.resets("ForceOff")).isEqualTo(1);
  }

  @Test
  void gracefulShutdownFallsBackToForceOffAfterTheTimeoutAndSaysSo() throws Exception {
    system.reconfigure(config().withIgnoredGracefulShutdown(true));
    system.forcePowerState(BmcPowerState.ON);

    PowerResult result =
        driver.execute(PowerCommand.off(PowerOffMode.GRACEFUL), endpoint(), deadline());

    assertThat(driver.bmcPowerState(endpoint(), deadline())).isEqualTo(BmcPowerState.OFF);
    assertThat(system.resets("GracefulShutdown")).isEqualTo(1);
    assertThat(system.resets("ForceOff")).isEqualTo(1);
    assertThat(result.sent()).containsExactly("GracefulShutdown", "ForceOff");
    assertThat(result.forced()).isTrue();
    assertThat(result.summary()).contains("graceful timeout");
  }

  @Test
  void aSlowReadAtTheEndOfTheGracefulWindowStillFallsBackToForceOff() throws Exception {
    system.reconfigure(config().withIgnoredGracefulShutdown(true));
    system.forcePowerState(BmcPowerState.ON);
    // Every answer takes 500 ms: the second poll of the 700 ms graceful window starts at about
    // 550 ms and ends past the window; it must not be cut off into an error.
    system.faults().latency(Duration.ofMillis(500));

    driver.powerOff(endpoint(), PowerOffMode.GRACEFUL, deadline());

    system.faults().clear();
    assertThat(driver.bmcPowerState(endpoint(), deadline())).isEqualTo(BmcPowerState.OFF);
    assertThat(system.resets("GracefulShutdown")).isEqualTo(1);
    assertThat(system.resets("ForceOff")).isEqualTo(1);
  }

  @Test
  void gracefulShutdownThatWorksNeedsNoForce() throws Exception {
    system.forcePowerState(BmcPowerState.ON);
    driver.powerOff(endpoint(), PowerOffMode.GRACEFUL, deadline());
    assertThat(system.resets("GracefulShutdown")).isEqualTo(1);
    assertThat(system.resets("ForceOff")).isZero();
  }

  @Test
  void aRefusalForTheStateAlreadyReachedIsSuccess() throws Exception {
    system.forcePowerState(BmcPowerState.ON);
    system.faults().staleStateNext(1, BmcPowerState.OFF); // the driver reads a stale "Off"

    driver.powerOn(endpoint(), deadline());

    assertThat(system.count(SimOperation.RESET_REFUSED)).isEqualTo(1);
    assertThat(system.resets("On")).isZero();
  }

  @Test
  void powerCycleUsesTheAllowedType() throws Exception {
    system.forcePowerState(BmcPowerState.ON);
    assertThat(driver.execute(PowerCommand.cycle(), endpoint(), deadline()).sent())
        .containsExactly("PowerCycle");
    assertThat(system.resets("PowerCycle")).isEqualTo(1);
  }

  @Test
  void powerCycleWithoutACycleTypeIsOffThenOn() throws Exception {
    system.reconfigure(config().withResetTypes(List.of("On", "ForceOff")));
    system.forcePowerState(BmcPowerState.ON);

    PowerResult result = driver.execute(PowerCommand.cycle(), endpoint(), deadline());

    assertThat(result.sent()).containsExactly("ForceOff", "On");
    assertThat(system.resets("ForceOff")).isEqualTo(1);
    assertThat(system.resets("On")).isEqualTo(1);
    assertThat(system.powerState()).isIn(BmcPowerState.POWERING_ON, BmcPowerState.ON);
  }

  @Test
  void powerCycleWithNoWayToCycleIsUnsupported() {
    system.reconfigure(config().withResetTypes(List.of("On")));
    system.forcePowerState(BmcPowerState.ON);
    assertThatThrownBy(() -> driver.powerCycle(endpoint(), deadline()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.UNSUPPORTED));
  }

  @Test
  void setsAOneTimePxeBootOverrideWithTheEtagAsIfMatch() throws Exception {
    String etag = system.etag();

    driver.setBootDevice(endpoint(), BootOverride.pxeOnce(), deadline());

    assertThat(system.bootOverride()).containsExactly("Pxe", "Once");
    assertThat(system.count(SimOperation.BOOT_OVERRIDE)).isEqualTo(1);
    assertThat(system.lastIfMatch()).isNotNull().isEqualTo(etag);
    assertThat(system.count(SimOperation.PRECONDITION_MISSING)).isZero();
    assertThat(system.count(SimOperation.PRECONDITION_FAILED)).isZero();
  }

  @Test
  void aStaleEtagIsReadAgainAndThePatchSentOnceMore() throws Exception {
    system.faults().etagChangeNext(1);

    driver.setBootDevice(endpoint(), BootOverride.pxeOnce(), deadline());

    assertThat(system.bootOverride()).containsExactly("Pxe", "Once");
    assertThat(system.count(SimOperation.PRECONDITION_FAILED)).isEqualTo(1);
    assertThat(system.count(SimOperation.BOOT_OVERRIDE)).isEqualTo(1);
    assertThat(system.count(SimOperation.SYSTEM)).as("one read per PATCH").isEqualTo(2);
    assertThat(system.lastIfMatch()).isEqualTo("W/\"2\"");
  }

  @Test
  void aSecondStaleEtagFailsWithoutAThirdPatch() {
    system.faults().etagChangeNext(3);

    assertThatThrownBy(() -> driver.setBootDevice(endpoint(), BootOverride.pxeOnce(), deadline()))
        .isInstanceOfSatisfying(
            TransientPowerException.class, e -> assertThat(e.getMessage()).contains("412"));

    system.faults().clear();
    assertThat(system.count(SimOperation.PRECONDITION_FAILED)).isEqualTo(2);
    assertThat(system.count(SimOperation.BOOT_OVERRIDE)).isZero();
    assertThat(system.bootOverride()).containsExactly("None", "Disabled");
  }

  @Test
  void aBmcWithoutEtagsGetsNoIfMatch() throws Exception {
    system.reconfigure(config().withEtags(false));

    driver.setBootDevice(endpoint(), BootOverride.pxeOnce(), deadline());

    assertThat(system.bootOverride()).containsExactly("Pxe", "Once");
    assertThat(system.lastIfMatch()).isNull();
  }

  @Test
  void inspectsHardwareAndReadsPowerDraw() throws Exception {
    HardwareInfo info = driver.inspect(endpoint(), deadline());
    assertThat(info.serial()).isEqualTo("SIM-" + id.toUpperCase(java.util.Locale.ROOT));
    assertThat(info.cpuCount()).isEqualTo(2);
    assertThat(info.memoryMiB()).isEqualTo(256L * 1024);
    assertThat(info.macAddresses()).hasSize(1).allMatch(m -> m.startsWith("52:54:00:"));

    system.forcePowerState(BmcPowerState.ON);
    assertThat(driver.powerDraw(endpoint(), deadline()).getAsDouble()).isEqualTo(250.0);
  }

  @Test
  void wrongCredentialsAreTerminalAndTheMessageHoldsNoSecret() {
    system.setCredentials("admin", "another-password");
    assertThatThrownBy(() -> driver.bmcPowerState(endpoint(), deadline()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(PowerException.Reason.BAD_CREDENTIALS);
              assertThat(e.getMessage()).doesNotContain(PASSWORD).contains("bmc-a");
            });
  }

  @Test
  void tlsWithoutTheCaFailsClearlyAndTheInsecureOptInPasses() throws Exception {
    BmcEndpoint untrusted = endpoint().withTls(TlsSettings.DEFAULT);
    assertThatThrownBy(() -> driver.bmcPowerState(untrusted, deadline()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(PowerException.Reason.TLS);
              assertThat(e.getMessage()).contains("not trusted");
            });

    BmcEndpoint insecure = endpoint().withTls(TlsSettings.insecureSkipVerify());
    assertThat(driver.bmcPowerState(insecure, deadline())).isEqualTo(BmcPowerState.OFF);
    assertThat(driver.bmcPowerState(endpoint(), deadline())).isEqualTo(BmcPowerState.OFF);
  }

  @Test
  void aPinnedFingerprintIsTrustedAndAWrongOneIsNot() throws Exception {
    String sha256 =
        io.bamel.power.tls.TlsConfigurer.sha256(fleet.certificate().orElseThrow().certificate());
    BmcEndpoint pinned = endpoint().withTls(TlsSettings.pinned(sha256));
    assertThat(driver.bmcPowerState(pinned, deadline())).isEqualTo(BmcPowerState.OFF);

    BmcEndpoint wrong = endpoint().withTls(TlsSettings.pinned("00".repeat(32)));
    assertThatThrownBy(() -> driver.bmcPowerState(wrong, deadline()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.TLS));
  }

  @Test
  void closeLogsTheSessionOut() throws Exception {
    driver.bmcPowerState(endpoint(), deadline());
    assertThat(system.sessionCount()).isEqualTo(1);
    driver.close();
    assertThat(system.count(SimOperation.LOGOUT)).isEqualTo(1);
    assertThat(system.sessionCount()).isZero();
  }
}
