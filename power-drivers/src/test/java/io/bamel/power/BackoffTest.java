package io.bamel.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BackoffTest {

  private final Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofMillis(500), 5);
  private final Duration plenty = Duration.ofMinutes(1);

  @Test
  void doublesUpToTheMaximum() {
    assertThat(backoff.delayBefore(2, plenty)).contains(Duration.ofMillis(100));
    assertThat(backoff.delayBefore(3, plenty)).contains(Duration.ofMillis(200));
    assertThat(backoff.delayBefore(4, plenty)).contains(Duration.ofMillis(400));
    assertThat(backoff.delayBefore(5, plenty)).contains(Duration.ofMillis(500));
  }

  @Test
  void stopsAfterTheLastAttempt() {
    assertThat(backoff.delayBefore(6, plenty)).isEmpty();
  }

  @Test
  void stopsWhenTheDelayWouldPassTheDeadline() {
    assertThat(backoff.delayBefore(3, Duration.ofMillis(150))).isEqualTo(Optional.empty());
    assertThat(backoff.delayBefore(2, Duration.ofMillis(150))).contains(Duration.ofMillis(100));
  }

  @Test
  void equalBoundsMeanAFixedDelay() {
    Backoff fixed = new Backoff(Duration.ofMillis(50), Duration.ofMillis(50), 4);
    assertThat(fixed.delayBefore(2, plenty)).contains(Duration.ofMillis(50));
    assertThat(fixed.delayBefore(4, plenty)).contains(Duration.ofMillis(50));
    assertThat(fixed.delayBefore(5, plenty)).isEmpty();
  }

  @Test
  void nonsenseBoundsAreRefused() {
    assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1), 3))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1), 3))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(2), 0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
