package io.bamel.power.proxmox;

import java.time.Duration;

/**
 * Settings of the Proxmox VE driver.
 *
 * @param gracefulTimeout how long a {@code shutdown} may take before {@code stop}
 * @param taskPollInterval how often a task's status is polled
 * @param connectTimeout the TCP connect timeout (each call is also bounded by its deadline)
 */
public record ProxmoxConfig(
    Duration gracefulTimeout, Duration taskPollInterval, Duration connectTimeout) {

  /** 120 s graceful timeout, 1 s task polls, 5 s connect timeout. */
  public static ProxmoxConfig defaults() {
    return new ProxmoxConfig(Duration.ofSeconds(120), Duration.ofSeconds(1), Duration.ofSeconds(5));
  }

  /** With other graceful timeout and task poll interval. */
  public ProxmoxConfig withTiming(Duration graceful, Duration poll) {
    return new ProxmoxConfig(graceful, poll, connectTimeout);
  }
}
