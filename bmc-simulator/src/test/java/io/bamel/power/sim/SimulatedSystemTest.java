package io.bamel.power.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.power.BmcPowerState;
import io.bamel.power.sim.SimulatedSystem.ResetOutcome;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.threeten.extra.MutableClock;

/** The simulated system's behaviour, on a clock the test moves. */
class SimulatedSystemTest {

  private final MutableClock clock =
      MutableClock.of(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
  private final SimulatedSystem system =
      new SimulatedSystem(
          "n1", SimSystemConfig.defaults().withPowerDelay(Duration.ofSeconds(5)), clock);

  @Test
  void aResetTakesEffectAfterTheDelayWithATransitionalStateBetween() {
    assertThat(system.reset("On")).isEqualTo(ResetOutcome.ACCEPTED);
    assertThat(system.powerState()).isEqualTo(BmcPowerState.POWERING_ON);
    assertThat(system.reset("On")).isEqualTo(ResetOutcome.BUSY);
    assertThat(system.reset("ForceOff")).isEqualTo(ResetOutcome.BUSY);

    clock.add(Duration.ofSeconds(5));
    assertThat(system.powerState()).isEqualTo(BmcPowerState.ON);
    assertThat(system.reset("On")).isEqualTo(ResetOutcome.ALREADY);
    assertThat(system.resets("On")).isEqualTo(1);

    assertThat(system.reset("GracefulShutdown")).isEqualTo(ResetOutcome.ACCEPTED);
    assertThat(system.powerState()).isEqualTo(BmcPowerState.POWERING_OFF);
    clock.add(Duration.ofSeconds(5));
    assertThat(system.powerState()).isEqualTo(BmcPowerState.OFF);
  }

  @Test
  void onlyAllowableResetTypesAreAccepted() {
    system.reconfigure(system.config().withResetTypes(List.of("On", "ForceOff")));
    assertThat(system.reset("GracefulShutdown")).isEqualTo(ResetOutcome.NOT_ALLOWED);
    assertThat(system.reset("PowerCycle")).isEqualTo(ResetOutcome.NOT_ALLOWED);
  }

  @Test
  void anOperatingSystemThatIgnoresGracefulShutdownStaysOn() {
    system.forcePowerState(BmcPowerState.ON);
    system.reconfigure(system.config().withIgnoredGracefulShutdown(true));
    assertThat(system.reset("GracefulShutdown")).isEqualTo(ResetOutcome.ACCEPTED);
    clock.add(Duration.ofMinutes(10));
    assertThat(system.powerState()).isEqualTo(BmcPowerState.ON);
  }

  @Test
  void sessionsExpireWhenIdleAndOnRotation() {
    String token = system.login("admin", "password").orElseThrow();
    assertThat(system.login("admin", "wrong")).isEmpty();
    clock.add(Duration.ofMinutes(29));
    assertThat(system.validSession(token)).isTrue();
    clock.add(Duration.ofMinutes(29));
    assertThat(system.validSession(token)).as("idle time counts from the last use").isTrue();
    clock.add(Duration.ofMinutes(31));
    assertThat(system.validSession(token)).isFalse();

    String second = system.login("admin", "password").orElseThrow();
    system.setCredentials("admin", "rotated");
    assertThat(system.validSession(second)).isFalse();
    assertThat(system.validBasic("admin", "password")).isFalse();
    assertThat(system.validBasic("admin", "rotated")).isTrue();
  }

  @Test
  void aSessionKeepsItsCreationTimeWhileEachUseMovesItsExpiry() {
    String token = system.login("admin", "password").orElseThrow();
    String id = SimulatedSystem.sessionIdOf(token);
    Instant created = clock.instant();
    clock.add(Duration.ofMinutes(10));
    assertThat(system.validSession(token)).isTrue();
    Duration timeout = system.config().sessionTimeout();
    assertThat(system.sessionTimes(id)).containsExactly(created, clock.instant().plus(timeout));
    assertThat(system.logout(id)).isTrue();
    assertThat(system.sessionCount()).isZero();
    assertThat(system.validSession(token)).isFalse();
  }

  @Test
  void arrivalsAreRecordedOnlyOnceATestAskedForThem() {
    system.requestStarted();
    system.requestEnded();
    assertThat(system.requestArrivalNanos()).isEmpty();

    system.clearRequestStats();
    long before = System.nanoTime();
    system.requestStarted();
    system.requestStarted();
    assertThat(system.maxConcurrentRequests()).isEqualTo(2);
    assertThat(system.requestArrivalNanos())
        .hasSize(2)
        .allSatisfy(t -> assertThat(t).isGreaterThanOrEqualTo(before));

    system.requestEnded();
    system.requestEnded();
    system.clearRequestStats();
    assertThat(system.requestArrivalNanos()).isEmpty();
    assertThat(system.maxConcurrentRequests()).isZero();
  }

  @Test
  void countsEachOperationApart() {
    system.record(SimOperation.values()[0]);
    system.record(SimOperation.values()[0]);
    system.record(SimOperation.values()[1]);
    assertThat(system.count(SimOperation.values()[0])).isEqualTo(2);
    assertThat(system.count(SimOperation.values()[1])).isEqualTo(1);
    assertThat(system.count(SimOperation.values()[2])).isZero();
  }

  @Test
  void onceAnEtagWasGivenABootOverrideNeedsAMatchingIfMatch() {
    assertThat(system.patchBoot("Hdd", "Once", null, false))
        .as("no ETag given yet: no precondition")
        .isEmpty();

    String etag = system.giveEtag();
    assertThat(system.patchBoot("Pxe", "Once", null, false))
        .contains(SimulatedSystem.PatchProblem.PRECONDITION_MISSING);
    assertThat(system.patchBoot("Pxe", "Once", "W/\"stale\"", false))
        .contains(SimulatedSystem.PatchProblem.PRECONDITION_FAILED);
    assertThat(system.bootOverride()).containsExactly("Hdd", "Once");

    assertThat(system.patchBoot("Pxe", "Once", etag, false)).isEmpty();
    assertThat(system.bootOverride()).containsExactly("Pxe", "Once");
    assertThat(system.lastIfMatch()).isEqualTo(etag);
    assertThat(system.etag()).as("a change moves the ETag on").isNotEqualTo(etag);
    assertThat(system.patchBoot("Hdd", "Once", etag, false))
        .contains(SimulatedSystem.PatchProblem.PRECONDITION_FAILED);
  }

  @Test
  void aConcurrentChangeMakesTheEtagJustReadStale() {
    String etag = system.giveEtag();
    assertThat(system.patchBoot("Pxe", "Once", etag, true))
        .contains(SimulatedSystem.PatchProblem.PRECONDITION_FAILED);
    assertThat(system.patchBoot("Pxe", "Once", system.giveEtag(), false)).isEmpty();
  }

  @Test
  void withoutEtagsNoIfMatchIsNeeded() {
    SimulatedSystem plain =
        new SimulatedSystem("plain", SimSystemConfig.defaults().withEtags(false), clock);
    assertThat(plain.giveEtag()).isNull();
    assertThat(plain.patchBoot("Pxe", "Once", null, false)).isEmpty();
    assertThat(plain.bootOverride()).containsExactly("Pxe", "Once");
  }

  @Test
  void outOfListValuesAreRefusedWithoutAChange() {
    String etag = system.giveEtag();
    assertThat(system.patchBoot("Floppy", "Once", etag, false))
        .contains(SimulatedSystem.PatchProblem.TARGET);
    assertThat(system.patchBoot("Pxe", "Sometimes", etag, false))
        .contains(SimulatedSystem.PatchProblem.ENABLED);
    assertThat(system.bootOverride()).containsExactly("None", "Disabled");
  }

  @Test
  void reportsPowerDraw() {
    assertThat(system.watts()).isEqualTo(6.0);
    system.forcePowerState(BmcPowerState.ON);
    assertThat(system.watts()).isEqualTo(250.0);
  }

  @Test
  void xccNeedsIfMatchOnEveryPatchAndRefusesContinuous() {
    SimulatedSystem xcc =
        new SimulatedSystem(
            "xcc",
            SimSystemConfig.defaults().withProfile(SimProfile.XCC),
            java.time.Clock.systemUTC());
    assertThat(xcc.patchBoot("Pxe", "Once", null, null, false))
        .as("before any ETag was given")
        .contains(SimulatedSystem.PatchProblem.PRECONDITION_MISSING);
    String etag = xcc.giveEtag();
    assertThat(xcc.patchBoot("Pxe", "Continuous", null, etag, false))
        .contains(SimulatedSystem.PatchProblem.ENABLED);
    assertThat(xcc.patchBoot("Pxe", "Once", null, etag, false)).isEmpty();
    assertThat(xcc.patchBoot("Pxe", "Once", "Legacy", xcc.giveEtag(), false))
        .as("the mode is not writable")
        .contains(SimulatedSystem.PatchProblem.MODE);
  }

  @Test
  void supermicroResetsAModeThatIsNotSent() {
    SimulatedSystem smc =
        new SimulatedSystem(
            "smc",
            SimSystemConfig.defaults().withProfile(SimProfile.SUPERMICRO_X12),
            java.time.Clock.systemUTC());
    assertThat(smc.patchBoot("Pxe", "Once", "UEFI", smc.giveEtag(), false)).isEmpty();
    assertThat(smc.bootMode()).isEqualTo("UEFI");
    assertThat(smc.patchBoot("Pxe", "Once", null, smc.giveEtag(), false)).isEmpty();
    assertThat(smc.bootMode()).isEqualTo("Legacy");
  }

  @Test
  void aProfileBringsItsResetTypes() {
    assertThat(SimSystemConfig.defaults().withProfile(SimProfile.ILO5).allowableResetTypes())
        .contains("PushPowerButton")
        .doesNotContain("GracefulShutdown");
    assertThat(SimSystemConfig.defaults().withProfile(SimProfile.IDRAC8).etags()).isFalse();
  }
}
