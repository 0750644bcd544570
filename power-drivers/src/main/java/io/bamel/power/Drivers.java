package io.bamel.power;

import io.bamel.power.credentials.CredentialSource;
import io.bamel.power.ipmi.IpmiConfig;
import io.bamel.power.ipmi.IpmiDriver;
import io.bamel.power.ipmi.IpmiImplementation;
import io.bamel.power.proxmox.ProxmoxDriver;
import io.bamel.power.redfish.RedfishDriver;
import io.bamel.power.wol.PowerOffCommands;
import io.bamel.power.wol.WolDriver;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;

/** Builds the registry of this module's drivers. */
public final class Drivers {

  private Drivers() {}

  /**
   * A registry with the {@code redfish}, {@code ipmi}, {@code wol} and {@code proxmox} drivers in
   * their default settings, resolving credentials through {@code credentials} and recording metrics
   * on {@code metricsRegistry} (usually {@link PrometheusRegistry#defaultRegistry}); Wake-on-LAN
   * nodes cannot be switched off (no power-off command is defined).
   */
  public static PowerDriverRegistry standard(
      CredentialSource credentials, PrometheusRegistry metricsRegistry) {
    return standard(credentials, PowerOffCommands.empty(), metricsRegistry);
  }

  /**
   * As {@link #standard(CredentialSource, PrometheusRegistry)}, with the server's Wake-on-LAN
   * power-off commands (a node's {@code wakeOnLan.powerOffCommand} names one of them).
   */
  public static PowerDriverRegistry standard(
      CredentialSource credentials,
      PowerOffCommands powerOffCommands,
      PrometheusRegistry metricsRegistry) {
    return standard(
        credentials, powerOffCommands, metricsRegistry, IpmiConfig.defaults().implementation());
  }

  /**
   * As {@link #standard(CredentialSource, PowerOffCommands, PrometheusRegistry)}, with the site's
   * IPMI implementation: how the IPMI driver reaches a BMC whose node sets no {@code
   * ipmi.implementation}.
   */
  public static PowerDriverRegistry standard(
      CredentialSource credentials,
      PowerOffCommands powerOffCommands,
      PrometheusRegistry metricsRegistry,
      IpmiImplementation ipmiImplementation) {
    return new PowerDriverRegistry(new PowerMetrics(metricsRegistry), Clock.systemUTC())
        .register(new RedfishDriver(credentials))
        .register(new IpmiDriver(credentials, ipmiImplementation))
        .register(new WolDriver(powerOffCommands))
        .register(new ProxmoxDriver(credentials));
  }
}
