package io.bamel.power;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BmcPowerStateTest {

  @ParameterizedTest
  @CsvSource({
    "ON, on, ON, false",
    "OFF, off, OFF, false",
    "POWERING_ON, powering-on, UNKNOWN, true",
    "POWERING_OFF, powering-off, UNKNOWN, true",
    "UNKNOWN, unknown, UNKNOWN, false"
  })
  void namesAndFolds(BmcPowerState state, String wire, BmcPowerState basic, boolean transitional) {
    assertThat(state.wireName()).isEqualTo(wire);
    assertThat(state.basic()).isEqualTo(basic);
    assertThat(state.transitional()).isEqualTo(transitional);
  }
}
