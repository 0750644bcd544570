package io.bamel.bench.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.Deadline;
import io.bamel.power.testing.NoOpDriver;
import java.time.Duration;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class PassRecorderTest {

  private static final Deadline SOON = Deadline.in(Duration.ofSeconds(5));

  @Test
  void everyReadPassedOnIsTalliedAndAnUnknownOneFailsTheRun() throws Exception {
    InstantDriver real = new InstantDriver();
    PassRecorder recorder = new PassRecorder(real);
    BmcEndpoint on = BmcEndpoint.of("https://192.0.2.1", "bmc");
    BmcEndpoint off = BmcEndpoint.of("https://192.0.2.2", "bmc");
    real.powerOn(on, SOON);
    assertThat(recorder.bmcPowerState(on, SOON)).isEqualTo(BmcPowerState.ON);
    assertThat(recorder.bmcPowerState(off, SOON)).isEqualTo(BmcPowerState.OFF);
    recorder.tally().requireRealStates("bmc-pass");
    assertThat(recorder.tally().reads()).isEqualTo(2);

    // A driver that no longer understands its BMC answers unknown instead of failing.
    PassRecorder misreading = new PassRecorder(new UnknownDriver());
    assertThat(misreading.bmcPowerState(on, SOON)).isEqualTo(BmcPowerState.UNKNOWN);
    misreading.reset();
    assertThat(misreading.tally().unknown()).as("the tally survives a pass's reset").isEqualTo(1);
    assertThatThrownBy(() -> misreading.tally().requireRealStates("bmc-pass"))
        .hasMessageStartingWith("bmc-pass: 1 of 1 power reads returned unknown");
  }

  @Test
  void drawsAndTheTimeTheReadsTookAreCountedUntilTheNextReset() throws Exception {
    PassRecorder recorder = new PassRecorder(new SlowDriver());
    BmcEndpoint a = BmcEndpoint.of("https://192.0.2.1", "bmc");
    BmcEndpoint b = BmcEndpoint.of("https://192.0.2.2", "bmc");
    recorder.bmcPowerState(a, SOON);
    recorder.powerDraw(a, SOON);
    recorder.powerDraw(b, SOON);
    recorder.powerOn(b, SOON); // not a read: neither counted nor timed

    assertThat(recorder.drawReads()).isEqualTo(2);
    assertThat(recorder.draws(b.address())).isEqualTo(1);
    assertThat(recorder.reads(b.address())).isZero();
    // three reads of at least SlowDriver.PAUSE each, one after the other: at most their span
    assertThat(recorder.readNanos())
        .isGreaterThanOrEqualTo(3 * SlowDriver.PAUSE.toNanos())
        .isLessThanOrEqualTo(recorder.lastEnd() - recorder.firstStart());

    recorder.reset();
    assertThat(recorder.drawReads()).isZero();
    assertThat(recorder.readNanos()).isZero();
  }

  /** A driver whose reads each take {@link #PAUSE}. */
  private static final class SlowDriver extends NoOpDriver {
    static final Duration PAUSE = Duration.ofMillis(5);

    SlowDriver() {
      super("redfish");
    }

    @Override
    public BmcPowerState bmcPowerState(BmcEndpoint endpoint, Deadline deadline) {
      pause();
      return BmcPowerState.ON;
    }

    @Override
    public OptionalDouble powerDraw(BmcEndpoint endpoint, Deadline deadline) {
      pause();
      return OptionalDouble.of(250);
    }

    private static void pause() {
      try {
        Thread.sleep(PAUSE);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** A driver whose every read is unknown, as a driver misreading its BMC's payload answers. */
  private static final class UnknownDriver extends NoOpDriver {
    UnknownDriver() {
      super("redfish");
    }

    @Override
    public BmcPowerState bmcPowerState(BmcEndpoint endpoint, Deadline deadline) {
      return BmcPowerState.UNKNOWN;
    }
  }
}
