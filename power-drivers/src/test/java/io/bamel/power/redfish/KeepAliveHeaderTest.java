package io.bamel.power.redfish;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KeepAliveHeaderTest {

  @ParameterizedTest(name = "[{0}] -> {1} s")
  @CsvSource(
      delimiter = '|',
      value = {
        "timeout=5, max=100 | 5",
        "max=100, timeout=15 | 15",
        "Timeout = 2 | 2",
        "timeout=\"3\" | 3",
        "timeout=1 | 1",
      })
  void readsTheAnnouncedIdleTimeout(String header, long seconds) {
    assertThat(KeepAliveHeader.timeout(header)).contains(Duration.ofSeconds(seconds));
  }

  @ParameterizedTest(name = "[{0}] announces nothing")
  @CsvSource(
      delimiter = '|',
      value = {
        "max=100",
        "timeout=0",
        "timeout=-5",
        "timeout=1.5",
        "timeout=",
        "timeout=soon",
        "timeout=99999999999999999999",
        "timeout",
      })
  void aHeaderWithoutAUsableTimeoutAnnouncesNothing(String header) {
    assertThat(KeepAliveHeader.timeout(header)).isEmpty();
  }

  @Test
  void noHeaderAnnouncesNothing() {
    assertThat(KeepAliveHeader.timeout(null)).isEmpty();
  }
}
