package io.bamel.power.redfish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PowerSourcesTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Map<String, JsonNode> resources = new LinkedHashMap<>();

  private void put(String uri, String json) throws Exception {
    resources.put(uri, JSON.readTree(json));
  }

  private Optional<JsonNode> fetch(String uri) {
    return Optional.ofNullable(resources.get(uri));
  }

  @ParameterizedTest(name = "{0} {1}: {2}")
  @CsvSource(
      delimiter = '|',
      nullValues = "none",
      textBlock =
          """
          ENVIRONMENT_METRICS | {"PowerWatts":{"Reading":374.5}}                | 374.5
          SUPPLY_METRICS      | {"InputPowerWatts":{"Reading":120}}             | 120
          LEGACY_POWER        | {"PowerControl":[{"PowerConsumedWatts":344}]}   | 344
          LEGACY_POWER        | {"PowerControl":[{"PowerConsumedWatts":null}]}  | none
          """)
  void readsEachKindOfResource(PowerSources.Kind kind, String json, Double watts) throws Exception {
    assertThat(PowerSources.reading(kind, JSON.readTree(json)))
        .isEqualTo(watts == null ? OptionalDouble.empty() : OptionalDouble.of(watts));
  }

  @Test
  void followsTrailingSlashLinksWithoutAppendingAndPrefersEnvironmentMetrics() throws Exception {
    put(
        "/redfish/v1/Chassis/1/",
        "{\"Power\":{\"@odata.id\":\"/redfish/v1/Chassis/1/Power/\"},"
            + "\"EnvironmentMetrics\":{\"@odata.id\":\"/redfish/v1/Chassis/1/EnvironmentMetrics/\"}}");
    put("/redfish/v1/Chassis/1/Power/", "{\"PowerControl\":[{\"PowerConsumedWatts\":100}]}");
    put("/redfish/v1/Chassis/1/EnvironmentMetrics/", "{\"PowerWatts\":{\"Reading\":200}}");
    JsonNode system =
        JSON.readTree("{\"Links\":{\"Chassis\":[{\"@odata.id\":\"/redfish/v1/Chassis/1/\"}]}}");

    PowerSources sources = PowerSources.discover(system, this::fetch, u -> u);

    assertThat(sources.sources())
        .containsExactly(
            new PowerSources.Source(
                "/redfish/v1/Chassis/1",
                "/redfish/v1/Chassis/1/EnvironmentMetrics/",
                PowerSources.Kind.ENVIRONMENT_METRICS));
    assertThat(sources.read(this::fetch)).hasValue(200);
  }

  @Test
  void addsThePowerSuppliesOfAPowerSubsystem() throws Exception {
    put("/c", "{\"PowerSubsystem\":{\"@odata.id\":\"/c/ps\"}}");
    put("/c/ps", "{\"PowerSupplies\":{\"@odata.id\":\"/c/ps/s\"}}");
    put("/c/ps/s", "{\"Members\":[{\"@odata.id\":\"/c/ps/s/0\"},{\"@odata.id\":\"/c/ps/s/1\"}]}");
    put("/c/ps/s/0", "{\"Metrics\":{\"@odata.id\":\"/c/ps/s/0/m\"}}");
    put("/c/ps/s/1", "{\"Metrics\":{\"@odata.id\":\"/c/ps/s/1/m\"}}");
    put("/c/ps/s/0/m", "{\"InputPowerWatts\":{\"Reading\":110}}");
    put("/c/ps/s/1/m", "{\"InputPowerWatts\":{\"Reading\":90}}");
    JsonNode system = JSON.readTree("{\"Links\":{\"Chassis\":[{\"@odata.id\":\"/c\"}]}}");

    assertThat(PowerSources.discover(system, this::fetch, u -> u).read(this::fetch)).hasValue(200);
  }

  @Test
  void sumsEveryChassisButAnEnclosureHoldingAnother() throws Exception {
    put(
        "/enc",
        "{\"Links\":{\"Contains\":[{\"@odata.id\":\"/blade/\"}]},"
            + "\"Power\":{\"@odata.id\":\"/enc/p\"}}");
    put("/enc/p", "{\"PowerControl\":[{\"PowerConsumedWatts\":3000}]}");
    put("/blade/", "{\"Power\":{\"@odata.id\":\"/blade/p\"}}");
    put("/blade/p", "{\"PowerControl\":[{\"PowerConsumedWatts\":250}]}");
    put("/extra", "{\"Power\":{\"@odata.id\":\"/extra/p\"}}");
    put("/extra/p", "{\"PowerControl\":[{\"PowerConsumedWatts\":50}]}");
    JsonNode system =
        JSON.readTree(
            "{\"Links\":{\"Chassis\":[{\"@odata.id\":\"/enc\"},{\"@odata.id\":\"/blade/\"},"
                + "{\"@odata.id\":\"/extra\"}]}}");

    assertThat(PowerSources.discover(system, this::fetch, u -> u).read(this::fetch)).hasValue(300);
  }

  @Test
  void noReadingIsEmptyAndAVanishedSourceIsReported() throws Exception {
    put("/c", "{\"Power\":{\"@odata.id\":\"/c/p\"}}");
    put("/c/p", "{\"PowerControl\":[]}");
    JsonNode system = JSON.readTree("{\"Links\":{\"Chassis\":[{\"@odata.id\":\"/c\"}]}}");
    PowerSources sources = PowerSources.discover(system, this::fetch, u -> u);
    assertThat(sources.read(this::fetch)).isEmpty();

    resources.remove("/c/p");
    assertThatThrownBy(() -> sources.read(this::fetch)).isInstanceOf(PowerSources.Gone.class);
  }
}
