package io.bamel.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.model.NodeReadings;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ReadingsPolicyTest {

  private static final Instant T0 = Instant.parse("2026-11-25T12:00:00Z");
  private static final ReadingsPolicy POLICY = ReadingsPolicy.DEFAULTS;

  private static NodeReadings stored(double watts) {
    return new NodeReadings(T0, watts, null, null);
  }

  @Test
  void theFirstReadingIsWritten() {
    assertThat(POLICY.shouldWrite(null, 300, T0)).isTrue();
    assertThat(POLICY.shouldWrite(new NodeReadings(T0, null, null, null), 300, T0)).isTrue();
  }

  @Test
  void smallMovesAreNotWritten() {
    Instant later = T0.plusSeconds(60);
    assertThat(POLICY.shouldWrite(stored(400), 415, later)).as("3.75%").isFalse();
    assertThat(POLICY.shouldWrite(stored(400), 385, later)).isFalse();
    assertThat(POLICY.shouldWrite(stored(60), 68, later)).as("13% but 8 W").isFalse();
  }

  @Test
  void movesBeyondBothTolerancesAreWritten() {
    Instant later = T0.plusSeconds(60);
    assertThat(POLICY.shouldWrite(stored(400), 421, later)).isTrue();
    assertThat(POLICY.shouldWrite(stored(400), 150, later)).isTrue();
    assertThat(POLICY.shouldWrite(stored(60), 71, later)).isTrue();
  }

  @Test
  void anUnchangedReadingIsRefreshedOncePerHeartbeat() {
    assertThat(POLICY.shouldWrite(stored(400), 400, T0.plus(Duration.ofMinutes(59)))).isFalse();
    assertThat(POLICY.shouldWrite(stored(400), 400, T0.plus(Duration.ofHours(1)))).isTrue();
  }

  @Test
  void everyReadingMeansEveryReading() {
    assertThat(ReadingsPolicy.EVERY_READING.shouldWrite(stored(400), 400, T0)).isTrue();
  }

  @Test
  void negativeTolerancesAreRefused() {
    assertThatThrownBy(() -> new ReadingsPolicy(-0.1, 0, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
