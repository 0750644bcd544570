package io.bamel.power.redfish;

import io.bamel.power.Backoff;
import java.time.Duration;
import java.util.function.Consumer;
import org.immutables.value.Value;

/**
 * Settings of the Redfish driver.
 *
 * @param gracefulTimeout how long a graceful off ({@code GracefulShutdown} or {@code
 *     PushPowerButton}) may take before {@code ForceOff}
 * @param pollInterval how often to re-read the state while waiting for a change
 * @param busyBackoff retries of answers 409 and 503 ("busy")
 * @param connectTimeout the TCP connect timeout (each call is also bounded by its deadline)
 * @param keepAlive how long an idle connection is kept for reuse: shorter than the keep-alive
 *     timeouts BMCs ship with (5 s is common: Apache's and lighttpd's default), so that a pooled
 *     connection is seldom one the BMC has already closed
 * @param perBmcConcurrency the most requests one BMC (one service root) gets at a time
 * @param perBmcInterval the least time between two requests to one BMC
 */
@Value.Builder
public record RedfishConfig(
    Duration gracefulTimeout,
    Duration pollInterval,
    Backoff busyBackoff,
    Duration connectTimeout,
    Duration keepAlive,
    int perBmcConcurrency,
    Duration perBmcInterval) {

  /** Checks the limits. */
  public RedfishConfig {
    if (perBmcConcurrency < 1) {
      throw new IllegalArgumentException("perBmcConcurrency must be at least 1");
    }
    if (keepAlive.isNegative() || keepAlive.isZero()) {
      throw new IllegalArgumentException("keepAlive must be positive");
    }
  }

  /**
   * 120 s graceful timeout, 2 s polls, the default backoff, 5 s connect timeout, idle connections
   * kept 4 s, at most 4 requests at a time per BMC and 20 ms between them.
   */
  public static RedfishConfig defaults() {
    return new RedfishConfig(
        Duration.ofSeconds(120),
        Duration.ofSeconds(2),
        Backoff.DEFAULT,
        Duration.ofSeconds(5),
        Duration.ofSeconds(4),
        4,
        Duration.ofMillis(20));
  }

  /** With another graceful timeout. */
  public RedfishConfig withGracefulTimeout(Duration timeout) {
    return with(b -> b.gracefulTimeout(timeout));
  }

  /** With another poll interval. */
  public RedfishConfig withPollInterval(Duration interval) {
    return with(b -> b.pollInterval(interval));
  }

  /** With another busy backoff. */
  public RedfishConfig withBusyBackoff(Backoff backoff) {
    return with(b -> b.busyBackoff(backoff));
  }

  /** With another idle time for pooled connections. */
  public RedfishConfig withKeepAlive(Duration idle) {
    return with(b -> b.keepAlive(idle));
  }

  /** With other per-BMC limits: {@code concurrency} requests at a time, {@code interval} apart. */
  public RedfishConfig withPerBmcLimits(int concurrency, Duration interval) {
    return with(b -> b.perBmcConcurrency(concurrency).perBmcInterval(interval));
  }

  /**
   * This config with the components {@code change} sets, through the generated {@link
   * RedfishConfigBuilder} (docs/architecture.md#generated-builders), checked again by the
   * constructor: a new component needs no change here.
   */
  private RedfishConfig with(Consumer<RedfishConfigBuilder> change) {
    RedfishConfigBuilder b = new RedfishConfigBuilder().from(this);
    change.accept(b);
    return b.build();
  }
}
