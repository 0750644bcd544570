package io.bamel.power.ipmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.Deadline;
import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.TransientPowerException;
import io.bamel.power.credentials.Credentials;
import io.bamel.power.process.ProcessResult;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.threeten.extra.MutableClock;

/**
 * The diagnostic re-run with {@code -v} after a quick "Unable to establish" is one more command to
 * the BMC: it waits out the minimum interval first. A scripted ipmitool on a fake clock: every run
 * takes 100 ms, a plain run fails without saying why, a {@code -v} run names the refused password.
 */
class IpmiDiagnosisPacingTest {

  private static final Duration RUN = Duration.ofMillis(100);
  private static final Duration MIN_INTERVAL = Duration.ofMillis(500);

  private final MutableClock clock =
      MutableClock.of(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
  private final List<Instant> starts = new ArrayList<>();
  private final List<Instant> ends = new ArrayList<>();
  private final List<Boolean> verbose = new ArrayList<>();

  private ProcessResult ipmitool(List<String> argv) {
    starts.add(clock.instant());
    clock.add(RUN);
    ends.add(clock.instant());
    boolean v = argv.contains("-v");
    verbose.add(v);
    String stderr =
        v
            ? "RAKP 2 HMAC is invalid\nError: Unable to establish IPMI v2 / RMCP+ session\n"
            : "Error: Unable to establish IPMI v2 / RMCP+ session\n";
    return new ProcessResult(1, "", stderr, false);
  }

  private IpmiDriver driver() {
    return new IpmiDriver(
        name -> Credentials.of("admin", "wrong"),
        IpmiConfig.defaults()
            .withImplementation(IpmiImplementation.IPMITOOL)
            .withMinInterval(MIN_INTERVAL)
            .withRetransmit(Duration.ofSeconds(1), 3),
        (argv, env, timeout) -> ipmitool(argv),
        clock,
        clock::add);
  }

  @Test
  void theVerboseReRunWaitsOutTheMinimumInterval() {
    assertThatThrownBy(
            () ->
                driver()
                    .bmcPowerState(
                        BmcEndpoint.of("192.0.2.9", "bmc"),
                        Deadline.in(Duration.ofSeconds(20), clock)))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.BAD_CREDENTIALS));

    assertThat(verbose).containsExactly(false, true);
    assertThat(Duration.between(ends.get(0), starts.get(1))).isGreaterThanOrEqualTo(MIN_INTERVAL);
  }

  @Test
  void withoutTimeForTheIntervalThereIsNoReRun() {
    // 550 ms: the first run takes 100 ms, leaving less than the 500 ms interval
    assertThatThrownBy(
            () ->
                driver()
                    .bmcPowerState(
                        BmcEndpoint.of("192.0.2.9", "bmc"),
                        Deadline.in(Duration.ofMillis(550), clock)))
        .isInstanceOfSatisfying(
            TransientPowerException.class,
            e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.UNREACHABLE));

    assertThat(verbose).containsExactly(false);
  }
}
