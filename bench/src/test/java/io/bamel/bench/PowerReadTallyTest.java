package io.bamel.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.BmcPowerState;
import org.junit.jupiter.api.Test;

class PowerReadTallyTest {

  @Test
  void aRunOfRealStatesPasses() {
    PowerReadTally tally = new PowerReadTally();
    assertThat(tally.record(BmcPowerState.ON)).isEqualTo(BmcPowerState.ON);
    tally.record(BmcPowerState.OFF);
    tally.record(BmcPowerState.OFF);
    tally.requireRealStates("power-redfish-reads");
    assertThat(tally.reads()).isEqualTo(3);
    assertThat(tally.unknown()).isZero();
  }

  @Test
  void oneUnknownReadAmongThousandsFailsTheRunNamingTheBenchmarkAndTheCount() {
    PowerReadTally tally = new PowerReadTally();
    for (int i = 0; i < 2_999; i++) {
      tally.record(BmcPowerState.OFF);
    }
    assertThat(tally.record(BmcPowerState.UNKNOWN)).isEqualTo(BmcPowerState.UNKNOWN);
    assertThat(tally.unknown()).isEqualTo(1);
    assertThatThrownBy(() -> tally.requireRealStates("power-redfish-reads"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "power-redfish-reads: 1 of 3,000 power reads returned unknown: the driver did not"
                + " understand the BMC's answer, so the run measured no real power state");
  }

  @Test
  void noAnswerAtAllCountsAsUnknown() {
    PowerReadTally tally = new PowerReadTally();
    tally.record(null);
    assertThatThrownBy(() -> tally.requireRealStates("bmc-pass"))
        .hasMessageStartingWith("bmc-pass: 1 of 1 power reads returned unknown");
  }
}
