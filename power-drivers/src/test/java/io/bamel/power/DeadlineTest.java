package io.bamel.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class DeadlineTest {

  /** A clock the test moves by hand. */
  static final class ManualClock extends Clock {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  @Test
  void countsDownOnItsClock() throws Exception {
    ManualClock clock = new ManualClock();
    Deadline deadline = Deadline.in(Duration.ofSeconds(10), clock);
    assertThat(deadline.remaining()).isEqualTo(Duration.ofSeconds(10));

    clock.now = clock.now.plusSeconds(4);
    assertThat(deadline.remaining()).isEqualTo(Duration.ofSeconds(6));
    assertThat(deadline.atMost(Duration.ofSeconds(2)).remaining()).isEqualTo(Duration.ofSeconds(2));
    assertThat(deadline.atMost(Duration.ofSeconds(60))).isSameAs(deadline);
    deadline.check("still time");

    clock.now = clock.now.plusSeconds(7);
    assertThat(deadline.remaining()).isZero();
    assertThat(deadline.expired()).isTrue();
    assertThatThrownBy(() -> deadline.check("GET /x"))
        .isInstanceOfSatisfying(
            TransientPowerException.class,
            e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.TIMEOUT))
        .hasMessageContaining("GET /x");
  }
}
