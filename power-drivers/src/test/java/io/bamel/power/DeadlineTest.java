package io.bamel.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.threeten.extra.MutableClock;

class DeadlineTest {
  @Test
  void countsDownOnItsClock() throws Exception {
    MutableClock clock = MutableClock.of(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    Deadline deadline = Deadline.in(Duration.ofSeconds(10), clock);
    assertThat(deadline.remaining()).isEqualTo(Duration.ofSeconds(10));

    clock.add(Duration.ofSeconds(4));
    assertThat(deadline.remaining()).isEqualTo(Duration.ofSeconds(6));
    assertThat(deadline.atMost(Duration.ofSeconds(2)).remaining()).isEqualTo(Duration.ofSeconds(2));
    assertThat(deadline.atMost(Duration.ofSeconds(60))).isSameAs(deadline);
    deadline.check("still time");

    clock.add(Duration.ofSeconds(7));
    assertThat(deadline.remaining()).isZero();
    assertThat(deadline.expired()).isTrue();
    assertThatThrownBy(() -> deadline.check("GET /x"))
        .isInstanceOfSatisfying(
            TransientPowerException.class,
            e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.TIMEOUT))
        .hasMessageContaining("GET /x");
  }
}
