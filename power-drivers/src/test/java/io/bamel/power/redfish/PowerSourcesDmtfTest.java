package io.bamel.power.redfish;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.power.redfish.dmtf.Mockup;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link PowerSources} on DMTF's published Chassis trees, read from the files: each data model
 * alone, by hiding the newer resources as a service without them answers (404).
 */
class PowerSourcesDmtfTest {

  private static final String ORIGIN = "http://bmc.example";

  private static Optional<JsonNode> fetch(Mockup mockup, String url, String... hidden) {
    String uri = url.substring(ORIGIN.length());
    for (String h : hidden) {
      if (uri.contains(h)) {
        return Optional.empty();
      }
    }
    JsonNode node = mockup.get(uri);
    return node.isMissingNode() ? Optional.empty() : Optional.of(node);
  }

  private static double draw(String name, String system, String... hidden) throws Exception {
    Mockup mockup = Mockup.of(name);
    RedfishFetch fetch = uri -> fetch(mockup, uri, hidden);
    PowerSources sources = PowerSources.discover(mockup.get(system), fetch, link -> ORIGIN + link);
    return sources.read(fetch).orElseThrow();
  }

  @Test
  void environmentMetricsFirst() throws Exception {
    // Chassis/1U/EnvironmentMetrics PowerWatts.Reading
    assertThat(draw("public-rackmount1", "/redfish/v1/Systems/437XR1138R2")).isEqualTo(374);
    // Chassis/Tower/EnvironmentMetrics PowerWatts.Reading
    assertThat(draw("public-tower", "/redfish/v1/Systems/437XR1238R2")).isEqualTo(974);
  }

  @Test
  void powerSuppliesWhereThereIsNoEnvironmentMetrics() throws Exception {
    // Bay1/Metrics InputPowerWatts.Reading 937.4; Bay2 is Absent and has no Metrics
    assertThat(draw("public-rackmount1", "/redfish/v1/Systems/437XR1138R2", "/EnvironmentMetrics"))
        .isEqualTo(937.4);
    // Bay1 and Bay2 of the tower, 487.4 each
    assertThat(draw("public-tower", "/redfish/v1/Systems/437XR1238R2", "/EnvironmentMetrics"))
        .isEqualTo(974.8);
  }

  @Test
  void theDeprecatedPowerResourceLast() throws Exception {
    // Chassis/1U/Power PowerControl[0].PowerConsumedWatts
    assertThat(
            draw(
                "public-rackmount1",
                "/redfish/v1/Systems/437XR1138R2",
                "/EnvironmentMetrics",
                "/PowerSubsystem"))
        .isEqualTo(344);
  }
}
