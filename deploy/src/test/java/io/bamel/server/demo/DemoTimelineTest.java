package io.bamel.server.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.model.NodeTimeouts;
import io.bamel.inventory.model.PoolConfig;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The demo's timeline: the standard one is the demo a person runs, and a faster one divides every
 * duration of it by the same factor (so DemoIT, at speed 3, sees the same sequence).
 */
class DemoTimelineTest {

  private static final DemoTimeline STANDARD = DemoTimeline.standard(Duration.ofSeconds(90));

  @Test
  void theStandardTimelineIsTheDemoOfTwoMinutes() {
    assertThat(STANDARD.loadPeriod()).isEqualTo(Duration.ofSeconds(90));
    assertThat(STANDARD.tick()).isEqualTo(Duration.ofMillis(500));
    assertThat(STANDARD.powerDelay()).isEqualTo(Duration.ofSeconds(3));
    assertThat(STANDARD.joinDelay()).isEqualTo(Duration.ofSeconds(4));
    assertThat(STANDARD.syncInterval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(STANDARD.pollInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(STANDARD.backoffBase()).isEqualTo(Duration.ofMillis(500));
    assertThat(STANDARD.backoffMax()).isEqualTo(Duration.ofSeconds(5));
    assertThat(STANDARD.poolInterval()).isEqualTo(Duration.ofSeconds(2));
    assertThat(STANDARD.scaleDownUnneededTime()).isEqualTo(Duration.ofSeconds(10));
    assertThat(STANDARD.delayAfterScaleUp()).isEqualTo(Duration.ofSeconds(10));
    assertThat(STANDARD.scaleUpCooldown())
        .as("the pools' default")
        .isEqualTo(PoolConfig.builder().build().withDefaults().scaleUpCooldown());
    assertThat(STANDARD.timeouts())
        .isEqualTo(
            NodeTimeouts.of(
                Duration.ofSeconds(60),
                Duration.ofSeconds(60),
                Duration.ofSeconds(60),
                Duration.ofSeconds(30)));
    assertThat(STANDARD.faster(1)).isEqualTo(STANDARD);
  }

  @Test
  void fasterDividesEveryDurationOfTheTimelineByTheFactor() throws Exception {
    DemoTimeline fast = STANDARD.faster(3);
    int durations = 0;
    for (RecordComponent c : DemoTimeline.class.getRecordComponents()) {
      Object standard = c.getAccessor().invoke(STANDARD);
      Object faster = c.getAccessor().invoke(fast);
      if (standard instanceof Duration d) {
        assertThat(faster).as(c.getName()).isEqualTo(d.dividedBy(3));
        durations++;
      } else {
        NodeTimeouts t = (NodeTimeouts) standard;
        assertThat(faster)
            .as(c.getName())
            .isEqualTo(
                NodeTimeouts.of(
                    t.powerOn().dividedBy(3),
                    t.join().dividedBy(3),
                    t.drain().dividedBy(3),
                    t.powerOff().dividedBy(3)));
      }
    }
    assertThat(durations).isEqualTo(12);
    assertThat(fast.loadPeriod()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void aFactorBelowOneIsRefused() {
    assertThatThrownBy(() -> STANDARD.faster(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("speed");
  }

  @Test
  void thePoolsTakeTheirWindowsCooldownAndTimeoutsFromTheTimeline() {
    DemoTimeline fast = STANDARD.faster(3);
    Map<String, PoolConfig> pools = DemoFleet.pools(fast);
    assertThat(pools).containsOnlyKeys(DemoFleet.GENERAL, DemoFleet.GPU);
    for (PoolConfig pool : pools.values()) {
      assertThat(pool.scaleDownUnneededTime()).isEqualTo(fast.scaleDownUnneededTime());
      assertThat(pool.delayAfterScaleUp()).isEqualTo(fast.delayAfterScaleUp());
      assertThat(pool.scaleUpCooldown()).isEqualTo(fast.scaleUpCooldown());
      assertThat(pool.timeouts()).isEqualTo(fast.timeouts());
      pool.validate();
    }
    assertThat(DemoFleet.load(fast.loadPeriod()).get(0).period()).isEqualTo(Duration.ofSeconds(30));
  }
}
