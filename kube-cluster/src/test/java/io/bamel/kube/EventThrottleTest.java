package io.bamel.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.threeten.extra.MutableClock;

/** {@link EventThrottle} on a fake clock. */
class EventThrottleTest {

  @Test
  void onePerNodeAndReasonPerWindowThenTheDroppedCount() {
    MutableClock clock = MutableClock.of(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    EventThrottle t = new EventThrottle(clock, Duration.ofMinutes(1));
    assertThat(t.admit("n1", "Draining")).isEqualTo(OptionalInt.of(0));
    assertThat(t.admit("n1", "Draining")).isEmpty();
    clock.add(Duration.ofSeconds(59));
    assertThat(t.admit("n1", "Draining")).isEmpty();
    assertThat(t.admit("n1", "PoweringOn")).as("another reason").isEqualTo(OptionalInt.of(0));
    assertThat(t.admit("n2", "Draining")).as("another node").isEqualTo(OptionalInt.of(0));
    clock.add(Duration.ofSeconds(1));
    assertThat(t.admit("n1", "Draining")).as("two were dropped").isEqualTo(OptionalInt.of(2));
    assertThat(t.admit("n1", "Draining")).isEmpty();
  }

  @Test
  void idleKeysAreForgotten() {
    MutableClock clock = MutableClock.of(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    EventThrottle t = new EventThrottle(clock, Duration.ofMinutes(1));
    for (int i = 0; i < 100; i++) {
      t.admit("n" + i, "Ready");
    }
    assertThat(t.size()).isEqualTo(100);
    clock.add(Duration.ofMinutes(2));
    t.admit("n0", "Ready");
    assertThat(t.size()).isEqualTo(1);
  }
}
