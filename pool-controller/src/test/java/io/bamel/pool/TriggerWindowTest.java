package io.bamel.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The hold-for-duration rule and the threshold comparison. */
class TriggerWindowTest {

  private static final Instant T = Instant.parse("2026-06-01T12:00:00Z");

  @Test
  void windowStartsAtTheFirstHoldAndEndsAtTheFirstMiss() {
    assertThat(TriggerWindow.next(null, true, T)).isEqualTo(T);
    assertThat(TriggerWindow.next(T, true, T.plusSeconds(60))).isEqualTo(T);
    assertThat(TriggerWindow.next(T, false, T.plusSeconds(60))).isNull();
  }

  @Test
  void votesFromTheEndOfTheDuration() {
    assertThat(TriggerWindow.votes(T, Duration.ofMinutes(5), T.plusSeconds(299))).isFalse();
    assertThat(TriggerWindow.votes(T, Duration.ofMinutes(5), T.plusSeconds(300))).isTrue();
    assertThat(TriggerWindow.votes(null, Duration.ZERO, T)).isFalse();
    assertThat(TriggerWindow.votes(T, null, T)).isTrue();
  }

  @Test
  void upHoldsWhenAnySeriesIsAboveDownWhenAllAreBelow() {
    assertThat(TriggerWindow.holds(List.of(1.0, 5.0), 3, true)).isTrue();
    assertThat(TriggerWindow.holds(List.of(1.0, 3.0), 3, true)).isFalse();
    assertThat(TriggerWindow.holds(List.of(1.0, 2.0), 3, false)).isTrue();
    assertThat(TriggerWindow.holds(List.of(1.0, 5.0), 3, false)).isFalse();
    assertThat(TriggerWindow.holds(List.of(), 3, false)).isFalse();
    assertThat(TriggerWindow.holds(List.of(), 3, true)).isFalse();
    assertThat(TriggerWindow.holds(List.of(Double.NaN), 3, true)).isFalse();
    assertThat(TriggerWindow.holds(List.of(Double.NaN), 3, false)).isFalse();
  }
}
