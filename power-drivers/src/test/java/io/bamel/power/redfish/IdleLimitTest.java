package io.bamel.power.redfish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IdleLimitTest {

  /** What a driver tells the limit: an idle connection found closed, or a server's timeout. */
  enum Event {
    /** A connection closed after the given idle time. */
    CLOSED_AFTER {
      @Override
      boolean tell(IdleLimit limit, Duration d) {
        return limit.closedAfter(d);
      }
    },
    /** A {@code Keep-Alive: timeout=} the server announced (0: none). */
    ANNOUNCED {
      @Override
      boolean tell(IdleLimit limit, Duration d) {
        return limit.announced(d);
      }
    };

    /** Tells {@code limit}; whether it lowered the limit. */
    abstract boolean tell(IdleLimit limit, Duration d);
  }

  @ParameterizedTest(name = "limit {0} ms, {1} {2} ms -> {3} ms (lowered: {4})")
  @CsvSource({
    // a BMC closing idle connections after 200 ms, met after a 1.6 s pass: half of what failed
    "4000, CLOSED_AFTER, 1600, 800, true",
    // met again at 300 ms idle: lower still
    "800, CLOSED_AFTER, 300, 150, true",
    // never below the floor
    "4000, CLOSED_AFTER, 150, 100, true",
    // a failure after a longer idle than the limit allows teaches nothing new
    "800, CLOSED_AFTER, 2000, 800, false",
    // a connection closed after less than the floor idle: not the idle timeout
    // (MaxKeepAliveRequests)
    "4000, CLOSED_AFTER, 20, 4000, false",
    // Keep-Alive: timeout=5 (Apache's default) under the 4 s default, before any failure: half
    "4000, ANNOUNCED, 5000, 2500, true",
    // timeout=1: 500 ms
    "4000, ANNOUNCED, 1000, 500, true",
    // a longer announced timeout than the limit keeps the limit
    "4000, ANNOUNCED, 15000, 4000, false",
    // announced again: nothing new
    "500, ANNOUNCED, 1000, 500, false",
    // nothing announced
    "4000, ANNOUNCED, 0, 4000, false",
  })
  void anIdleTimeMetOrAnnouncedHalvesTheLimit(
      long limitMs, Event event, long ms, long expectedMs, boolean lowered) {
    IdleLimit limit = new IdleLimit(Duration.ofMillis(limitMs));

    assertThat(event.tell(limit, Duration.ofMillis(ms))).isEqualTo(lowered);
    assertThat(limit.current()).isEqualTo(Duration.ofMillis(expectedMs));
  }

  @ParameterizedTest(name = "limit {0} ms, last request {1} ms ago -> lone: {2}")
  @CsvSource({
    // a periodic read, a minute after the last
    "4000, 60000, true",
    // exactly the limit: no connection that idle is reused
    "4000, 4000, true",
    // within a burst (polling after a reset, an inspection's reads)
    "4000, 50, false",
    // a BMC closing idle connections after 200 ms (limit learnt 100 ms), read 300 ms later
    "100, 300, true",
  })
  void aRequestLongerAfterTheLastThanTheLimitIsALoneOne(long limitMs, long sinceMs, boolean lone) {
    assertThat(new IdleLimit(Duration.ofMillis(limitMs)).lone(Duration.ofMillis(sinceMs)))
        .isEqualTo(lone);
  }

  @ParameterizedTest(name = "initial {0} ms")
  @CsvSource({"0", "-1"})
  void theInitialLimitMustBePositive(long initialMs) {
    assertThatThrownBy(() -> new IdleLimit(Duration.ofMillis(initialMs)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
