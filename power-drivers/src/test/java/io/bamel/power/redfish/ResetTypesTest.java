package io.bamel.power.redfish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.TerminalPowerException;
import io.bamel.power.redfish.ResetTypes.Intent;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ResetTypesTest {

  static Stream<Arguments> cases() {
    List<String> full =
        List.of("On", "ForceOff", "GracefulShutdown", "ForceRestart", "ForceOn", "PowerCycle");
    List<String> noGraceful = List.of("ForceOn", "ForceOff", "ForceRestart");
    return Stream.of(
        Arguments.of(Intent.ON, full, "On"),
        Arguments.of(Intent.ON, noGraceful, "ForceOn"),
        Arguments.of(Intent.GRACEFUL_OFF, full, "GracefulShutdown"),
        Arguments.of(Intent.GRACEFUL_OFF, noGraceful, null),
        Arguments.of(Intent.FORCE_OFF, noGraceful, "ForceOff"),
        Arguments.of(Intent.CYCLE, full, "PowerCycle"),
        Arguments.of(Intent.CYCLE, noGraceful, "ForceRestart"),
        Arguments.of(Intent.CYCLE, List.of("On", "GracefulRestart"), "GracefulRestart"),
        Arguments.of(Intent.ON, List.of(), "On"),
        Arguments.of(Intent.GRACEFUL_OFF, List.of(), "GracefulShutdown"),
        Arguments.of(Intent.CYCLE, List.of(), "ForceRestart"));
  }

  @ParameterizedTest(name = "{0} with {1} -> {2}")
  @MethodSource("cases")
  void choosesFromTheAllowableValues(Intent intent, List<String> allowed, String expected) {
    assertThat(ResetTypes.choose(intent, allowed)).isEqualTo(Optional.ofNullable(expected));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void requireFailsTerminallyWhenNothingFits(Intent intent, List<String> allowed, String expected) {
    if (expected == null) {
      assertThatThrownBy(() -> ResetTypes.require(intent, allowed))
          .isInstanceOf(TerminalPowerException.class)
          .hasMessageContaining("allows no reset type");
    } else {
      assertThat(catchRequire(intent, allowed)).isEqualTo(expected);
    }
  }

  private static String catchRequire(Intent intent, List<String> allowed) {
    try {
      return ResetTypes.require(intent, allowed);
    } catch (TerminalPowerException e) {
      throw new AssertionError(e);
    }
  }
}
