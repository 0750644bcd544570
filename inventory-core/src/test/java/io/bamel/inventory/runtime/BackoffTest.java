package io.bamel.inventory.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {

  private static final Backoff STEADY =
      new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5), false);

  @Test
  void delaysDoubleUpToTheMaximum() {
    assertThat(STEADY.delay(0)).isEqualTo(Duration.ofMillis(100));
    assertThat(STEADY.delay(1)).isEqualTo(Duration.ofMillis(200));
    assertThat(STEADY.delay(5)).isEqualTo(Duration.ofMillis(3_200));
    assertThat(STEADY.delay(6)).isEqualTo(Duration.ofSeconds(5));
    assertThat(STEADY.delay(1_000)).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void jitterDrawsBetweenZeroAndTheCeiling() {
    for (int attempt = 0; attempt < 10; attempt++) {
      for (int i = 0; i < 200; i++) {
        assertThat(Backoff.CONFLICT.delay(attempt))
            .isBetween(Duration.ZERO, Backoff.CONFLICT.ceiling(attempt));
      }
    }
    assertThat(Backoff.CONFLICT.ceiling(10)).isEqualTo(Duration.ofMillis(50));
  }

  @Test
  void nonsenseBoundsAreRefused() {
    assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1), false))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1), false))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
