package io.bamel.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.maintenance.DefragRule;
import io.bamel.pool.PoolStatusWrites;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The settings that keep etcd small: the pool status tolerance ({@code
 * poolController.statusUtilizationTolerance}, {@code poolController.statusMaxAge}) and the leader's
 * defragmentation ({@code storage.defrag.*}); their defaults are the core's, and bad values are
 * refused naming the setting.
 */
class EtcdSpaceSettingsTest {

  @Test
  void theDefaultsAreTheCoresDefaultsAndDefragmentationIsOn() {
    ServerConfig c = ConfigLoader.load(null, Map.of(), Map.of());
    assertThat(
            new PoolStatusWrites(
                c.poolController().statusUtilizationTolerance(), c.poolController().statusMaxAge()))
        .isEqualTo(PoolStatusWrites.DEFAULTS);
    ServerConfig.Storage.Defrag d = c.storage().defrag();
    assertThat(d.enabled()).isTrue();
    assertThat(
            new DefragRule(
                d.minDbSizeBytes(),
                d.maxDbSizeBytes(),
                d.minFreeRatio(),
                d.growthRatio(),
                d.minInterval()))
        .isEqualTo(DefragRule.DEFAULTS);
  }

  @Test
  void theSettingsComeFromTheEnvironmentAndFlags() {
    ServerConfig c =
        ConfigLoader.load(
            null,
            Map.of(
                "BAMEL_STORAGE_DEFRAG_ENABLED", "false",
                "BAMEL_POOL_CONTROLLER_STATUS_UTILIZATION_TOLERANCE", "0.05"),
            Map.of(
                "storage.defrag.growthRatio", "0",
                "storage.defrag.maxDbSizeBytes", "2147483648",
                "poolController.statusMaxAge", "0s"));
    assertThat(c.storage().defrag().enabled()).isFalse();
    assertThat(c.storage().defrag().growthRatio()).isZero();
    assertThat(c.storage().defrag().maxDbSizeBytes()).isEqualTo(2L << 30);
    assertThat(c.poolController().statusUtilizationTolerance()).isEqualTo(0.05);
    assertThat(c.poolController().statusMaxAge()).isZero();
  }

  @Test
  void badValuesAreRefusedNamingTheSetting() {
    Map<String, String> bad =
        Map.of(
            "poolController.statusUtilizationTolerance", "1.5",
            "poolController.statusMaxAge", "PT-1M",
            "storage.defrag.minDbSizeBytes", "-1",
            "storage.defrag.maxDbSizeBytes", "-1",
            "storage.defrag.minFreeRatio", "2",
            "storage.defrag.growthRatio", "0.5",
            "storage.defrag.minInterval", "PT-1S",
            "storage.defrag.checkInterval", "0s");
    for (Map.Entry<String, String> e : bad.entrySet()) {
      assertThatThrownBy(() -> ConfigLoader.load(null, Map.of(), Map.of(e.getKey(), e.getValue())))
          .as(e.getKey())
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining(e.getKey());
    }
  }
}
