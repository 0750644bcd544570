package io.bamel.power.proxmox;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.power.Deadline;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The form of the graceful {@code shutdown}: the window in whole seconds, and force stop. */
class ProxmoxShutdownFormTest {

  private final Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

  private Map<String, String> form(Duration window) {
    return ProxmoxDriver.shutdownForm(Deadline.in(window, clock));
  }

  @Test
  void theWindowIsRoundedUpToWholeSecondsAndForceStopIsOn() {
    assertThat(form(Duration.ofSeconds(120)))
        .containsExactlyInAnyOrderEntriesOf(Map.of("timeout", "120", "forceStop", "1"));
    assertThat(form(Duration.ofMillis(2500))).containsEntry("timeout", "3");
    assertThat(form(Duration.ofMillis(400))).containsEntry("timeout", "1");
  }

  @Test
  void aWindowWithNothingLeftStillAsksForOneSecond() {
    assertThat(form(Duration.ZERO)).containsEntry("timeout", "1");
  }

  @Test
  void theDeadlineShortensTheWindow() {
    Deadline deadline = Deadline.in(Duration.ofSeconds(30), clock);
    assertThat(ProxmoxDriver.shutdownForm(deadline.atMost(Duration.ofSeconds(120))))
        .containsEntry("timeout", "30");
  }
}
