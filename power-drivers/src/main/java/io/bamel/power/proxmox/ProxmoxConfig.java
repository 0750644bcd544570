package io.bamel.power.proxmox;

import java.time.Duration;

/**
 * Settings of the Proxmox VE driver.
 *
 * @param gracefulTimeout how long a {@code shutdown} may take before {@code stop}
 * @param taskPollInterval how often a task's status is polled
 * @param connectTimeout the TCP connect timeout (each call is also bounded by its deadline)
 * @param perHostConcurrency the most API requests one Proxmox host ({@code host:port}, which serves
 *     every VM on it) gets at a time
 * @param perHostInterval the least time between two API requests to one Proxmox host
 */
public record ProxmoxConfig(
    Duration gracefulTimeout,
    Duration taskPollInterval,
    Duration connectTimeout,
    int perHostConcurrency,
    Duration perHostInterval) {

  /** Checks the limits. */
  public ProxmoxConfig {
    if (perHostConcurrency < 1) {
      throw new IllegalArgumentException("perHostConcurrency must be at least 1");
    }
  }

  /**
   * 120 s graceful timeout, 1 s task polls, 5 s connect timeout, at most 4 requests at a time per
   * Proxmox host and 10 ms between them.
   */
  public static ProxmoxConfig defaults() {
    return new ProxmoxConfig(
        Duration.ofSeconds(120),
        Duration.ofSeconds(1),
        Duration.ofSeconds(5),
        4,
        Duration.ofMillis(10));
  }

  /** With other graceful timeout and task poll interval. */
  public ProxmoxConfig withTiming(Duration graceful, Duration poll) {
    return new ProxmoxConfig(graceful, poll, connectTimeout, perHostConcurrency, perHostInterval);
  }

  /** With other per-host limits: {@code concurrency} requests at a time, {@code interval} apart. */
  public ProxmoxConfig withPerHostLimits(int concurrency, Duration interval) {
    return new ProxmoxConfig(
        gracefulTimeout, taskPollInterval, connectTimeout, concurrency, interval);
  }
}
