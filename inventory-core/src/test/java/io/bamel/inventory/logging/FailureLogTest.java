package io.bamel.inventory.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.threeten.extra.MutableClock;

class FailureLogTest {

  private final Logger logger = (Logger) LoggerFactory.getLogger("test.failure-log");
  private final ListAppender<ILoggingEvent> events = new ListAppender<>();
  private final MutableClock clock =
      MutableClock.of(Instant.parse("2026-11-25T12:00:00Z"), ZoneOffset.UTC);

  @BeforeEach
  void capture() {
    events.start();
    logger.addAppender(events);
    logger.setLevel(Level.INFO);
  }

  @AfterEach
  void release() {
    logger.detachAppender(events);
  }

  private static Map<String, Object> fields(ILoggingEvent e) {
    return e.getKeyValuePairs().stream()
        .collect(Collectors.toMap(kv -> kv.key, kv -> kv.value, (a, b) -> b));
  }

  @Test
  void warnsOnceNamingTheNodeAndReasonThenRepeatsWithTheCountAndRecoversOnce() {
    FailureLog log =
        new FailureLog(
            logger, "node", "bmc-status", clock, new FailureNotices(Duration.ofMinutes(15), 10));
    for (int i = 0; i <= 30; i++) {
      log.failed("r1-u07", "UNREACHABLE", "UNREACHABLE: connect to 192.0.2.17:443 timed out");
      clock.add(Duration.ofSeconds(30));
    }
    log.recovered("r1-u07");
    log.recovered("r1-u07");

    List<ILoggingEvent> logged = events.list;
    assertThat(logged)
        .extracting(ILoggingEvent::getLevel)
        .containsExactly(Level.WARN, Level.WARN, Level.INFO);
    ILoggingEvent first = logged.get(0);
    assertThat(first.getFormattedMessage())
        .isEqualTo(
            "bmc-status failed: node=r1-u07 cause=UNREACHABLE"
                + " reason=\"UNREACHABLE: connect to 192.0.2.17:443 timed out\"");
    assertThat(fields(first))
        .containsEntry("node", "r1-u07")
        .containsEntry("action", "bmc-status")
        .containsEntry("cause", "UNREACHABLE")
        .containsEntry("reason", "UNREACHABLE: connect to 192.0.2.17:443 timed out");
    assertThat(logged.get(1).getFormattedMessage())
        .startsWith("bmc-status still failing: node=r1-u07 cause=UNREACHABLE for=15m0s")
        .contains("suppressed=29");
    assertThat(logged.get(2).getFormattedMessage())
        .isEqualTo("bmc-status recovered: node=r1-u07 cause=UNREACHABLE after=15m30s suppressed=0");
  }

  @Test
  void aChangedCauseWarnsAtOnceAndSaysWhatItWas() {
    FailureLog log = new FailureLog(logger, "pool", "trigger-query", clock);
    log.failed("gpu", "query", "trigger busy: bad_data: parse error");
    log.failed("gpu", "no-prometheus", null);
    assertThat(events.list).hasSize(2);
    assertThat(events.list.get(1).getFormattedMessage())
        .isEqualTo(
            "trigger-query failed: pool=gpu cause=no-prometheus previousCause=query"
                + " reason=\"no-prometheus\"");
    assertThat(fields(events.list.get(1))).containsEntry("pool", "gpu");
  }
}
