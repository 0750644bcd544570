package io.bamel.power.wol;

import java.time.Duration;

/**
 * Settings of the Wake-on-LAN driver.
 *
 * @param defaultBroadcast where magic packets go unless the endpoint says otherwise
 * @param repeats how many times each magic packet is sent
 * @param repeatGap the pause between two sends
 * @param probeTimeout the TCP connect timeout of the reachability probe
 * @param pollInterval how often to probe while waiting for a change (power cycle)
 */
public record WolConfig(
    String defaultBroadcast,
    int repeats,
    Duration repeatGap,
    Duration probeTimeout,
    Duration pollInterval) {

  /** 255.255.255.255:9, 3 sends 20 ms apart, 1 s probe timeout, 2 s polls. */
  public static WolConfig defaults() {
    return new WolConfig(
        "255.255.255.255:9",
        3,
        Duration.ofMillis(20),
        Duration.ofSeconds(1),
        Duration.ofSeconds(2));
  }

  /** With another poll interval. */
  public WolConfig withPollInterval(Duration interval) {
    return new WolConfig(defaultBroadcast, repeats, repeatGap, probeTimeout, interval);
  }
}
