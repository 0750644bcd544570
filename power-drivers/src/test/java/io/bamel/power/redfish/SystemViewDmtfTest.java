package io.bamel.power.redfish;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bamel.power.BmcPowerState;
import io.bamel.redfish.dmtf.DmtfFiles;
import org.junit.jupiter.api.Test;

/**
 * The driver reads ComputerSystem resources as DMTF publishes them (files of {@code redfish-dmtf},
 * not the simulator): a rename of a Redfish property in Java cannot pass here.
 */
class SystemViewDmtfTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode file(String path) throws Exception {
    return JSON.readTree(DmtfFiles.read(path).orElseThrow());
  }

  @Test
  void readsThePowerStateOfDmtfsRackmountServer() throws Exception {
    JsonNode system = file("mockups/public-rackmount1/Systems/437XR1138R2/index.json");
    assertThat(system.path("PowerState").asText()).as("the published payload").isEqualTo("On");

    SystemView view = SystemView.of(system);

    assertThat(view.powerState()).isEqualTo(BmcPowerState.ON);
    assertThat(view.resetTarget("/redfish/v1/Systems/437XR1138R2"))
        .isEqualTo("/redfish/v1/Systems/437XR1138R2/Actions/ComputerSystem.Reset");
    assertThat(view.boot().path("BootSourceOverrideTarget").asText()).isEqualTo("Pxe");
  }

  @Test
  void everyPublishedSystemHasAKnownPowerState() throws Exception {
    for (String mockup : DmtfFiles.MOCKUPS) {
      String systems = "mockups/" + mockup + "/Systems/index.json";
      for (JsonNode member : file(systems).path("Members")) {
        String id = member.path("@odata.id").asText();
        JsonNode system =
            file("mockups/" + mockup + id.substring("/redfish/v1".length()) + "/index.json");
        assertThat(SystemView.of(system).powerState())
            .as("%s %s (PowerState %s)", mockup, id, system.path("PowerState"))
            .isNotEqualTo(BmcPowerState.UNKNOWN);
      }
    }
  }
}
