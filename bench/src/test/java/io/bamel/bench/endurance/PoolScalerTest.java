package io.bamel.bench.endurance;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PoolScalerTest {

  private static final Instant NOW = Instant.parse("2026-03-02T12:00:00Z");

  private static PoolScaler.Counts counts(int ready, int comingUp, int goingDown, int off) {
    return new PoolScaler.Counts(100, ready, comingUp, goingDown, off, 10);
  }

  @Test
  void scalesUpToTheAimCappedByTheTransitionsInFlight() {
    PoolScaler.Verdict v = PoolScaler.decide(counts(40, 0, 0, 60), 36, PoolScaler.Memory.NONE, NOW);
    // 36 / 40 = 0.9 > 0.70; the aim 0.55 wants ceil(36 / 0.55) = 66 nodes, 26 more; at most 5
    assertThat(v.powerOn()).isEqualTo(5);
    assertThat(v.powerOff()).isZero();
    assertThat(v.memory().lastScaleUp()).isEqualTo(NOW);
    assertThat(v.utilization()).isEqualTo(0.9);
  }

  @Test
  void countsNodesComingUpBeforeScalingUpAgain() {
    PoolScaler.Verdict v = PoolScaler.decide(counts(40, 5, 0, 55), 30, PoolScaler.Memory.NONE, NOW);
    // 30 / 45 = 0.67: the nodes coming up are enough
    assertThat(v.powerOn()).isZero();
  }

  @Test
  void scalesDownOnlyAfterTenMinutesLowAndTenMinutesAfterAScaleUp() {
    PoolScaler.Counts c = counts(80, 0, 0, 20);
    PoolScaler.Verdict first = PoolScaler.decide(c, 20, PoolScaler.Memory.NONE, NOW);
    assertThat(first.powerOff()).isZero();
    assertThat(first.memory().lowSince()).isEqualTo(NOW);
    PoolScaler.Verdict nine =
        PoolScaler.decide(c, 20, first.memory(), NOW.plus(Duration.ofMinutes(9)));
    assertThat(nine.powerOff()).isZero();
    PoolScaler.Verdict ten =
        PoolScaler.decide(c, 20, first.memory(), NOW.plus(Duration.ofMinutes(10)));
    // 20 / 80 = 0.25 < 0.30 for 10 minutes: keep ceil(20 / 0.55) = 37, switch off at most 5
    assertThat(ten.powerOff()).isEqualTo(5);
    PoolScaler.Memory afterUp = new PoolScaler.Memory(NOW, NOW.plus(Duration.ofMinutes(5)));
    assertThat(PoolScaler.decide(c, 20, afterUp, NOW.plus(Duration.ofMinutes(12))).powerOff())
        .isZero();
  }

  @Test
  void aLoadBackAboveTheThresholdRestartsTheWindow() {
    PoolScaler.Counts c = counts(80, 0, 0, 20);
    PoolScaler.Verdict low = PoolScaler.decide(c, 20, PoolScaler.Memory.NONE, NOW);
    PoolScaler.Verdict back =
        PoolScaler.decide(c, 40, low.memory(), NOW.plus(Duration.ofMinutes(5)));
    assertThat(back.memory().lowSince()).isNull();
  }
}
