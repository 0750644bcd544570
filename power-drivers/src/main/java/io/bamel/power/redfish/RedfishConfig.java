package io.bamel.power.redfish;

import io.bamel.power.Backoff;
import java.time.Duration;

/**
 * Settings of the Redfish driver.
 *
 * @param gracefulTimeout how long a {@code GracefulShutdown} may take before {@code ForceOff}
 * @param pollInterval how often to re-read the state while waiting for a change
 * @param busyBackoff retries of answers 409 and 503 ("busy")
 * @param connectTimeout the TCP connect timeout (each call is also bounded by its deadline)
 */
public record RedfishConfig(
    Duration gracefulTimeout, Duration pollInterval, Backoff busyBackoff, Duration connectTimeout) {

  /** 120 s graceful timeout, 2 s polls, the default backoff, 5 s connect timeout. */
  public static RedfishConfig defaults() {
    return new RedfishConfig(
        Duration.ofSeconds(120), Duration.ofSeconds(2), Backoff.DEFAULT, Duration.ofSeconds(5));
  }

  /** With another graceful timeout. */
  public RedfishConfig withGracefulTimeout(Duration timeout) {
    return new RedfishConfig(timeout, pollInterval, busyBackoff, connectTimeout);
  }

  /** With another poll interval. */
  public RedfishConfig withPollInterval(Duration interval) {
    return new RedfishConfig(gracefulTimeout, interval, busyBackoff, connectTimeout);
  }

  /** With another busy backoff. */
  public RedfishConfig withBusyBackoff(Backoff backoff) {
    return new RedfishConfig(gracefulTimeout, pollInterval, backoff, connectTimeout);
  }
}
