package io.bamel.power;

import io.bamel.power.credentials.CredentialSource;
import io.bamel.power.ipmi.IpmiImplementation;
import io.bamel.power.spi.PowerInterfaceType;
import io.bamel.power.spi.PowerInterfaceTypes;
import io.bamel.power.wol.PowerOffCommands;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.util.Map;

/** Builds the registry of every registered power interface's driver. */
public final class Drivers {

  private Drivers() {}

  /**
   * A registry with the driver of every registered {@link PowerDriverFactory} (this module's {@code
   * redfish}, {@code ipmi}, {@code wol} and {@code proxmox}, and any other on the class path) in
   * their default settings, resolving credentials through {@code credentials} and recording metrics
   * on {@code metricsRegistry} (usually {@link PrometheusRegistry#defaultRegistry}); Wake-on-LAN
   * nodes cannot be switched off (no power-off command is defined).
   */
  public static PowerDriverRegistry standard(
      CredentialSource credentials, PrometheusRegistry metricsRegistry) {
    return standard(new DriverContext(credentials, Map.of()), metricsRegistry);
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
        new DriverContext(credentials, Map.of(PowerOffCommands.class, powerOffCommands)),
        metricsRegistry);
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
    return standard(
        new DriverContext(
            credentials,
            Map.of(
                PowerOffCommands.class,
                powerOffCommands,
                IpmiImplementation.class,
                ipmiImplementation)),
        metricsRegistry);
  }

  /** A registry with the driver of every registered {@link PowerDriverFactory}. */
  public static PowerDriverRegistry standard(
      DriverContext context, PrometheusRegistry metricsRegistry) {
    PowerDriverRegistry registry =
        new PowerDriverRegistry(new PowerMetrics(metricsRegistry), Clock.systemUTC());
    for (PowerInterfaceType type : PowerInterfaceTypes.all()) {
      if (type instanceof PowerDriverFactory factory) {
        registry.register(factory.create(context));
      }
    }
    return registry;
  }
}
