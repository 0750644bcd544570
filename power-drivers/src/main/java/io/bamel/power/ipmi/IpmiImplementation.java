package io.bamel.power.ipmi;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import java.util.Locale;

/**
 * How the IPMI driver reaches a BMC: {@link #NATIVE}, bamel's own RMCP+ client in process (the
 * default), or {@link #IPMITOOL}, one {@code ipmitool -I lanplus} process per command (the
 * fallback, for a BMC the native client does not suit). Chosen per node by the endpoint option
 * {@link IpmiDriver#OPTION_IMPLEMENTATION} ({@code ipmi.implementation} in the node's spec), else
 * by the driver's {@link IpmiConfig#implementation()}. Pure.
 */
public enum IpmiImplementation {
  /** The in-process RMCP+ client ({@code native}). */
  NATIVE,
  /** The {@code ipmitool} program ({@code ipmitool}). */
  IPMITOOL;

  /** The option's value: {@code native} or {@code ipmitool}. */
  public String value() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The endpoint's choice, else {@code fallback}. */
  static IpmiImplementation of(BmcEndpoint endpoint, IpmiImplementation fallback)
      throws TerminalPowerException {
    String value = endpoint.option(IpmiDriver.OPTION_IMPLEMENTATION).orElse(null);
    return value == null ? fallback : parse(value);
  }

  /** {@code native} or {@code ipmitool} (any case). */
  public static IpmiImplementation parse(String value) throws TerminalPowerException {
    for (IpmiImplementation implementation : values()) {
      if (implementation.value().equalsIgnoreCase(value.trim())) {
        return implementation;
      }
    }
    throw new TerminalPowerException(
        PowerException.Reason.INVALID_CONFIG,
        "IPMI option "
            + IpmiDriver.OPTION_IMPLEMENTATION
            + " must be native or ipmitool, not '"
            + value
            + "'");
  }
}
