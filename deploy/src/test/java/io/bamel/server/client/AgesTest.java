package io.bamel.server.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AgesTest {

  @ParameterizedTest
  @CsvSource({
    "0, 0s",
    "119, 119s",
    "120, 2m",
    "310, 5m10s",
    "600, 10m",
    "10799, 179m",
    "10800, 3h",
    "11100, 3h5m",
    "28800, 8h",
    "172799, 47h",
    "172800, 2d",
    "180000, 2d2h",
    "691200, 8d",
    "63071999, 729d",
    "63072000, 2y",
    "63331200, 2y3d",
    "252288000, 8y"
  })
  void agesReadLikeKubectls(long seconds, String expected) {
    assertThat(Ages.human(Duration.ofSeconds(seconds))).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource({
    "2026-01-01T00:00:00Z, 2026-01-01T00:05:10Z, 5m10s",
    "2026-01-01T00:00:10Z, 2026-01-01T00:00:00Z, 0s"
  })
  void sinceCountsFromTheInstantAndNeverBelowZero(String since, String now, String expected) {
    assertThat(Ages.since(Instant.parse(since), Instant.parse(now))).isEqualTo(expected);
  }
}
