package io.bamel.bench.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerOffMode;
import java.time.Duration;
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

  /** A driver whose every read is unknown, as a driver misreading its BMC's payload answers. */
  private static final class UnknownDriver implements PowerDriver {
    @Override
    public String powerInterface() {
      return "redfish";
    }

    @Override
    public BmcPowerState bmcPowerState(BmcEndpoint endpoint, Deadline deadline) {
      return BmcPowerState.UNKNOWN;
    }

    @Override
    public void powerOn(BmcEndpoint endpoint, Deadline deadline) {}

    @Override
    public void powerOff(BmcEndpoint endpoint, PowerOffMode mode, Deadline deadline) {}

    @Override
    public void powerCycle(BmcEndpoint endpoint, Deadline deadline) {}

    @Override
    public void setBootDevice(BmcEndpoint endpoint, BootOverride override, Deadline deadline) {}

    @Override
    public void close() {}
  }
}
