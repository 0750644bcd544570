package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.node.NodeControllerConfig;
import io.bamel.node.ReadingsPolicy;
import io.bamel.server.config.ConfigException;
import io.bamel.server.config.ConfigLoader;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The node controller's readings settings reach the controller: {@code nodeController.readings.*}
 * from the file, the environment or a flag become its readings interval and readings policy, with
 * the controller's own defaults when unset, and bad values are refused naming the setting.
 */
class NodeControllerSettingsMappingTest {

  static NodeControllerConfig load(Map<String, String> env, Map<String, String> flags) {
    return NodeControllerSettingsMapping.config(
        ConfigLoader.load(null, env, flags).nodeController());
  }

  @Test
  void unsetReadingsSettingsAreTheControllersDefaults() {
    NodeControllerConfig c = load(Map.of(), Map.of());
    assertThat(c.readings()).isEqualTo(NodeControllerConfig.DEFAULTS.readings());
    assertThat(c.readingsInterval()).isEqualTo(NodeControllerConfig.DEFAULTS.readingsInterval());
    assertThat(c.readings()).isEqualTo(ReadingsPolicy.DEFAULTS);
    assertThat(c.bmcConcurrency()).isEqualTo(64);
    assertThat(c.syncInterval()).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void readingsSettingsFromTheEnvironmentAndFlagsReachTheController() {
    NodeControllerConfig c =
        load(
            Map.of(
                "BAMEL_NODE_CONTROLLER_READINGS_INTERVAL", "0s",
                "BAMEL_NODE_CONTROLLER_READINGS_RELATIVE_TOLERANCE", "0.1"),
            Map.of(
                "nodeController.readings.absoluteWatts", "25",
                "nodeController.readings.heartbeat", "15m",
                "nodeController.bmcConcurrency", "128"));
    assertThat(c.readingsInterval()).isZero();
    assertThat(c.readings()).isEqualTo(new ReadingsPolicy(0.1, 25, Duration.ofMinutes(15)));
    assertThat(c.bmcConcurrency()).isEqualTo(128);
    assertThat(ConfigLoader.environmentNames())
        .containsEntry(
            "BAMEL_NODE_CONTROLLER_READINGS_HEARTBEAT", "nodeController.readings.heartbeat")
        .containsEntry(
            "BAMEL_NODE_CONTROLLER_READINGS_ABSOLUTE_WATTS",
            "nodeController.readings.absoluteWatts");
  }

  @Test
  void badReadingsSettingsAreRefusedNamingTheSetting() {
    Map<String, String> bad =
        Map.of(
            "nodeController.readings.interval", "PT-1S",
            "nodeController.readings.relativeTolerance", "1.5",
            "nodeController.readings.absoluteWatts", "-1",
            "nodeController.readings.heartbeat", "PT-1M");
    for (Map.Entry<String, String> e : bad.entrySet()) {
      assertThatThrownBy(() -> load(Map.of(), Map.of(e.getKey(), e.getValue())))
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining(e.getKey());
    }
  }
}
