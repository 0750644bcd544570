package io.bamel.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class NodeControllerConfigTest {

  @Test
  void theDefaultWorkersCanReachTheBmcLimit() {
    // each worker makes one BMC call at a time: fewer workers than the limit would cap it
    NodeControllerConfig d = NodeControllerConfig.DEFAULTS;
    assertThat(d.workers()).isGreaterThanOrEqualTo(d.bmcConcurrency());
    assertThat(d.bmcConcurrency()).isEqualTo(64);
    assertThat(d.shutdownTimeout()).isEqualTo(Duration.ofSeconds(20));
    assertThat(d.readings()).isEqualTo(ReadingsPolicy.DEFAULTS);
    assertThat(d.readingsInterval()).isEqualTo(Duration.ofMinutes(10));
  }

  @Test
  void everyWithKeepsTheOtherSettings() {
    NodeControllerConfig c =
        NodeControllerConfig.DEFAULTS
            .withShutdownTimeout(Duration.ofSeconds(3))
            .withConcurrency(8, 4)
            .withIntervals(Duration.ofSeconds(9), Duration.ofSeconds(1))
            .withBackoff(Duration.ofMillis(10), Duration.ofSeconds(2))
            .withBmcCallTimeout(Duration.ofSeconds(7))
            .withTimeouts(TestSite.TIMEOUTS)
            .withReadingsPolicy(ReadingsPolicy.EVERY_READING)
            .withReadingsInterval(Duration.ZERO);
    assertThat(c.readings()).isEqualTo(ReadingsPolicy.EVERY_READING);
    assertThat(c.readingsInterval()).isZero();
    assertThat(c.shutdownTimeout()).isEqualTo(Duration.ofSeconds(3));
    assertThat(c.workers()).isEqualTo(8);
    assertThat(c.bmcConcurrency()).isEqualTo(4);
    assertThat(c.syncInterval()).isEqualTo(Duration.ofSeconds(9));
    assertThat(c.pollInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(c.syncJitter()).isEqualTo(NodeControllerConfig.DEFAULTS.syncJitter());
    assertThat(c.backoffBase()).isEqualTo(Duration.ofMillis(10));
    assertThat(c.backoffMax()).isEqualTo(Duration.ofSeconds(2));
    assertThat(c.bmcCallTimeout()).isEqualTo(Duration.ofSeconds(7));
    assertThat(c.timeouts())
        .isEqualTo(TestSite.TIMEOUTS.orElse(io.bamel.inventory.model.NodeTimeouts.DEFAULTS));
  }

  @Test
  void aShutdownTimeoutIsZeroOrPositive() {
    assertThat(NodeControllerConfig.DEFAULTS.withShutdownTimeout(Duration.ZERO).shutdownTimeout())
        .isZero();
    assertThatThrownBy(
            () -> NodeControllerConfig.DEFAULTS.withShutdownTimeout(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> NodeControllerConfig.DEFAULTS.withShutdownTimeout(null))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
