package io.bamel.power.redfish;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.bamel.power.BmcPowerState;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SystemViewTest {

  @ParameterizedTest
  @CsvSource({
    "On, ON",
    "Off, OFF",
    "PoweringOn, POWERING_ON",
    "PoweringOff, POWERING_OFF",
    "Paused, UNKNOWN",
    "'', UNKNOWN"
  })
  void mapsPowerStates(String redfish, BmcPowerState expected) {
    assertThat(SystemView.parseState(redfish)).isEqualTo(expected);
  }

  @Test
  void readsTheResetActionAndItsAllowableValues() throws Exception {
    String json =
        """
        {"PowerState":"On","Actions":{"#ComputerSystem.Reset":{
          "target":"/redfish/v1/Systems/1/Actions/ComputerSystem.Reset",
          "ResetType@Redfish.AllowableValues":["On","ForceOff"]}}}
        """;
    SystemView view = SystemView.of(new ObjectMapper().readTree(json));
    assertThat(view.powerState()).isEqualTo(BmcPowerState.ON);
    assertThat(ResetTypes.usable(view.inlineResetTypes())).contains(List.of("On", "ForceOff"));
    assertThat(view.actionInfo()).isNull();
    assertThat(view.resetTarget("x"))
        .isEqualTo("/redfish/v1/Systems/1/Actions/ComputerSystem.Reset");
  }

  @Test
  void defaultsTheResetTargetBelowTheSystem() throws Exception {
    SystemView view = SystemView.of(new ObjectMapper().readTree("{\"PowerState\":\"Off\"}"));
    assertThat(view.inlineResetTypes().isMissingNode()).isTrue();
    assertThat(view.resetTarget("/redfish/v1/Systems/1"))
        .isEqualTo("/redfish/v1/Systems/1/Actions/ComputerSystem.Reset");
    assertThat(view.resetTarget("/redfish/v1/Systems/1/"))
        .as("a trailing slash is not doubled")
        .isEqualTo("/redfish/v1/Systems/1/Actions/ComputerSystem.Reset");
  }

  @Test
  void readsTheActionInfoLink() throws Exception {
    String json =
        """
        {"PowerState":"Off","Actions":{"#ComputerSystem.Reset":{
          "target":"/redfish/v1/Systems/system/Actions/ComputerSystem.Reset",
          "@Redfish.ActionInfo":"/redfish/v1/Systems/system/ResetActionInfo"}}}
        """;
    SystemView view = SystemView.of(new ObjectMapper().readTree(json));
    assertThat(view.actionInfo()).isEqualTo("/redfish/v1/Systems/system/ResetActionInfo");
    assertThat(view.inlineResetTypes().isMissingNode()).isTrue();
  }
}
