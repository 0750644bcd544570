package io.bamel.dcim.netbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RetryAfterTest {

  private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");

  @Test
  void readsSecondsAndDates() {
    assertThat(RetryAfter.parse("7", NOW)).isEqualTo(Duration.ofSeconds(7));
    assertThat(RetryAfter.parse(" 0 ", NOW)).isEqualTo(Duration.ZERO);
    assertThat(RetryAfter.parse("Thu, 01 Jan 2026 10:00:30 GMT", NOW))
        .isEqualTo(Duration.ofSeconds(30));
    assertThat(RetryAfter.parse("Thu, 01 Jan 2026 09:00:00 GMT", NOW)).isEqualTo(Duration.ZERO);
    assertThat(RetryAfter.parse(null, NOW)).isNull();
    assertThat(RetryAfter.parse("soon", NOW)).isNull();
  }
}
