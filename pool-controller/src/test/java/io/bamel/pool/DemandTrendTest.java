package io.bamel.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The demand trend's window, rate and projection, worked by hand. */
class DemandTrendTest {

  private static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");
  private static final Duration TEN_MIN = Duration.ofMinutes(10);

  private static DemandTrend cpu(double... perMinute) {
    DemandTrend t = DemandTrend.EMPTY;
    for (int i = 0; i < perMinute.length; i++) {
      t = t.observe(T0.plusSeconds(60L * i), Resources.of("cpu", perMinute[i]), TEN_MIN);
    }
    return t;
  }

  @Test
  void keepsOnlyTheWindow() {
    DemandTrend t = cpu(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
    // Samples at minutes 2..12: the ones at most ten minutes older than the newest.
    assertThat(t.samples()).hasSize(11);
    assertThat(t.samples().get(0).at()).isEqualTo(T0.plusSeconds(120));
  }

  @Test
  void aZeroWindowKeepsNothing() {
    assertThat(cpu(1, 2).observe(T0.plusSeconds(600), Resources.of("cpu", 3), Duration.ZERO))
        .isEqualTo(DemandTrend.EMPTY);
  }

  @Test
  void anOlderOrRepeatedSampleReplacesNothingAfterIt() {
    DemandTrend t = cpu(1, 2, 3).observe(T0.plusSeconds(60), Resources.of("cpu", 9), TEN_MIN);
    // The samples at or after minute 1 are dropped: the newest is the one just observed.
    assertThat(t.samples()).hasSize(2);
    assertThat(t.samples().get(1).demand().get("cpu")).isEqualTo(9);
  }

  @Test
  void theRateIsTheLeastSquaresSlope() {
    // 0, 2, 1, 3 cores at minutes 0..3: slope (by hand) 0.8 cores a minute.
    DemandTrend t = cpu(0, 2, 1, 3);
    assertThat(t.risePerSecond(Duration.ZERO).get("cpu")).isCloseTo(0.8 / 60, within(1e-12));
  }

  @Test
  void aFallingOrFlatResourceHasNoRise() {
    assertThat(cpu(5, 4, 3).risePerSecond(Duration.ZERO)).isEqualTo(Resources.NONE);
    assertThat(cpu(5, 5, 5).risePerSecond(Duration.ZERO)).isEqualTo(Resources.NONE);
  }

  @Test
  void tooShortASpanHasNoRise() {
    DemandTrend t = cpu(1, 2, 3);
    assertThat(t.risePerSecond(Duration.ofMinutes(3))).isEqualTo(Resources.NONE);
    assertThat(t.risePerSecond(Duration.ofMinutes(2)).get("cpu"))
        .isCloseTo(1.0 / 60, within(1e-12));
    assertThat(cpu(4).risePerSecond(Duration.ZERO)).isEqualTo(Resources.NONE);
  }

  @Test
  void theProjectionAddsTheRiseOverTheLookaheadAndNeverFalls() {
    // Rising 1 core a minute to 13: 5 minutes ahead, 18.
    assertThat(cpu(10, 11, 12, 13).projected(Duration.ofMinutes(5), Duration.ZERO).get("cpu"))
        .isCloseTo(18, within(1e-9));
    // Falling: the newest demand as it is.
    assertThat(cpu(13, 12, 11, 10).projected(Duration.ofMinutes(5), Duration.ZERO).get("cpu"))
        .isCloseTo(10, within(1e-9));
    assertThat(DemandTrend.EMPTY.projected(Duration.ofMinutes(5), Duration.ZERO))
        .isEqualTo(Resources.NONE);
  }

  @Test
  void eachResourceHasItsOwnRate() {
    DemandTrend t = DemandTrend.EMPTY;
    for (int i = 0; i < 3; i++) {
      t =
          t.observe(
              T0.plusSeconds(60L * i),
              Resources.of("cpu", 10 + i, "memory", 100 - 10 * i),
              TEN_MIN);
    }
    Resources ahead = t.projected(Duration.ofMinutes(2), Duration.ZERO);
    assertThat(ahead.get("cpu")).isCloseTo(14, within(1e-9));
    assertThat(ahead.get("memory")).isCloseTo(80, within(1e-9));
  }
}
