package io.bamel.power.ipmi;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.Deadline;
import io.bamel.power.PowerOffMode;
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
 * The graceful off of the IPMI driver on a fake clock, with a scripted ipmitool whose every call
 * takes 400 ms and which ignores {@code chassis power soft}.
 */
class IpmiGracefulOffTest {

  private static final Duration CALL = Duration.ofMillis(400);

  private final MutableClock clock =
      MutableClock.of(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
  private final List<String> commands = new ArrayList<>();
  private boolean on = true;

  private ProcessResult ipmitool(List<String> argv, Duration timeout) {
    String command = String.join(" ", argv.subList(argv.indexOf("chassis"), argv.size()));
    if (timeout.compareTo(CALL) < 0) {
      clock.add(timeout);
      return new ProcessResult(-1, "", "", true);
    }
    clock.add(CALL);
    commands.add(command);
    if (command.equals("chassis power off")) {
      on = false;
    }
    return new ProcessResult(
        0,
        command.endsWith("status") ? "Chassis Power is " + (on ? "on" : "off") + "\n" : "",
        "",
        false);
  }

  @Test
  void aStatusCallRunningPastTheGracefulWindowEndsTheWaitAndForcesOff() throws Exception {
    IpmiDriver driver =
        new IpmiDriver(
            name -> Credentials.of("operator", "pw"),
            IpmiConfig.defaults()
                .withImplementation(IpmiImplementation.IPMITOOL)
                .withMinInterval(Duration.ZERO)
                .withGraceful(Duration.ofMillis(850), Duration.ofMillis(100)),
            (argv, env, timeout) -> ipmitool(argv, timeout),
            clock,
            clock::add);

    driver.powerOff(
        BmcEndpoint.of("192.0.2.1:623", "rack-a"),
        PowerOffMode.GRACEFUL,
        Deadline.in(Duration.ofSeconds(30), clock));

    // status, soft, then the 0.85 s window: status (0.4 s), a 0.1 s pause, and a status call that
    // starts with 0.35 s of the window left and ends past it
    assertThat(commands)
        .containsSubsequence("chassis power soft", "chassis power off")
        .endsWith("chassis power off", "chassis power status");
    assertThat(on).isFalse();
  }
}
