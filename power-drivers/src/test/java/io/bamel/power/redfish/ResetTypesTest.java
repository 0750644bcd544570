package io.bamel.power.redfish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.redfish.ResetTypes.Intent;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ResetTypesTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  static Stream<Arguments> cases() {
    List<String> full =
        List.of("On", "ForceOff", "GracefulShutdown", "ForceRestart", "ForceOn", "PowerCycle");
    List<String> noGraceful = List.of("ForceOn", "ForceOff", "ForceRestart");
    List<String> ilo = List.of("On", "ForceOff", "ForceRestart", "Nmi", "PushPowerButton");
    List<String> idrac8 = List.of("On", "ForceOff", "GracefulRestart", "PushPowerButton", "Nmi");
    List<String> buttonOnly = List.of("PushPowerButton");
    return Stream.of(
        Arguments.of(Intent.ON, full, "On"),
        Arguments.of(Intent.ON, noGraceful, "ForceOn"),
        Arguments.of(Intent.ON, buttonOnly, "PushPowerButton"),
        Arguments.of(Intent.GRACEFUL_OFF, full, "GracefulShutdown"),
        Arguments.of(Intent.GRACEFUL_OFF, ilo, "PushPowerButton"),
        Arguments.of(Intent.GRACEFUL_OFF, idrac8, "PushPowerButton"),
        Arguments.of(Intent.GRACEFUL_OFF, noGraceful, null),
        Arguments.of(Intent.FORCE_OFF, noGraceful, "ForceOff"),
        Arguments.of(Intent.FORCE_OFF, buttonOnly, null),
        Arguments.of(Intent.CYCLE, full, "PowerCycle"),
        Arguments.of(Intent.CYCLE, noGraceful, "ForceRestart"),
        Arguments.of(Intent.CYCLE, List.of("On", "GracefulRestart"), null),
        Arguments.of(Intent.ON, List.of(), "On"),
        Arguments.of(Intent.GRACEFUL_OFF, List.of(), "GracefulShutdown"),
        Arguments.of(Intent.CYCLE, List.of(), "ForceRestart"));
  }

  @ParameterizedTest(name = "{0} with {1} -> {2}")
  @MethodSource("cases")
  void choosesInTheDocumentedOrder(Intent intent, List<String> allowed, String expected) {
    assertThat(ResetTypes.choose(intent, allowed)).isEqualTo(Optional.ofNullable(expected));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void requireFailsTerminallyWhenNothingFits(Intent intent, List<String> allowed, String expected)
      throws Exception {
    ResetTypes.Allowed from = new ResetTypes.Allowed(allowed, "test");
    if (expected == null) {
      assertThatThrownBy(() -> ResetTypes.require(intent, from))
          .isInstanceOf(TerminalPowerException.class)
          .hasMessageContaining(allowed.toString());
    } else {
      assertThat(ResetTypes.require(intent, from)).isEqualTo(expected);
    }
  }

  @Test
  void aGracefulOffThatCannotBeGracefulNamesTheForcedAlternativeWithoutSendingIt() {
    TerminalPowerException e =
        ResetTypes.unsupported(
            Intent.GRACEFUL_OFF, new ResetTypes.Allowed(List.of("On", "ForceOff"), "ActionInfo"));
    assertThat(e.getMessage())
        .contains("GracefulShutdown", "PushPowerButton", "[On, ForceOff] (ActionInfo)", "forced");
  }

  @Test
  void cyclesOffThenOnWhereThereIsNoCycleType() {
    assertThat(ResetTypes.cycle(List.of("On", "ForceOff", "GracefulShutdown", "PowerCycle")))
        .containsExactly("PowerCycle");
    assertThat(ResetTypes.cycle(List.of("On", "ForceOff", "GracefulRestart", "PushPowerButton")))
        .containsExactly("ForceOff", "On");
    assertThat(ResetTypes.cycle(List.of("ForceOff", "PushPowerButton")))
        .containsExactly("ForceOff", "PushPowerButton");
    assertThat(ResetTypes.cycle(List.of("On", "GracefulShutdown"))).isEmpty();
  }

  @Test
  void anInlineListIsUsedOnlyWhenEveryValueIsAResetType() throws Exception {
    assertThat(ResetTypes.usable(json("[\"On\",\"ForceOff\"]")))
        .contains(List.of("On", "ForceOff"));
    assertThat(ResetTypes.usable(json("[\"On\",\"Graceful Shutdown\"]"))).isEmpty();
    assertThat(ResetTypes.usable(json("[\"On,ForceOff,GracefulShutdown\"]"))).isEmpty();
    assertThat(ResetTypes.usable(json("\"On\""))).isEmpty();
    assertThat(ResetTypes.usable(json("[]"))).isEmpty();
    assertThat(ResetTypes.usable(MissingNode.getInstance())).isEmpty();
  }

  @Test
  void actionInfoComesFirstThenUsableInlineValuesThenTheAssumedOnes() throws Exception {
    JsonNode info =
        json(
            """
            {"Parameters":[{"Name":"Other","AllowableValues":["x"]},
              {"Name":"ResetType","Required":true,"DataType":"String",
               "AllowableValues":["On","ForceOff","GracefulShutdown","PowerCycle"]}]}
            """);
    Optional<List<String>> fromInfo = ResetTypes.fromActionInfo(info);
    assertThat(fromInfo).contains(List.of("On", "ForceOff", "GracefulShutdown", "PowerCycle"));

    JsonNode malformed = json("[\"On\",\"ForceOff\",\"Graceful Shutdown\"]");
    assertThat(ResetTypes.allowed(fromInfo, malformed).source()).isEqualTo("ActionInfo");
    assertThat(ResetTypes.allowed(Optional.empty(), json("[\"On\",\"ForceOff\"]")))
        .isEqualTo(new ResetTypes.Allowed(List.of("On", "ForceOff"), "AllowableValues"));
    assertThat(ResetTypes.allowed(Optional.empty(), malformed))
        .isEqualTo(new ResetTypes.Allowed(ResetTypes.ASSUMED, "assumed"));
    assertThat(ResetTypes.fromActionInfo(json("{\"Parameters\":[]}"))).isEmpty();
  }

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text);
  }
}
