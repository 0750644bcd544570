package io.bamel.server.client.bmc;

import java.util.Locale;

/** What {@code bamel bmc} does. */
public enum BmcAction {
  /** Read the power state. */
  STATUS,
  /** Switch on and wait until the BMC reports on. */
  ON,
  /** Switch off (gracefully unless {@code --force}) and wait until the BMC reports off. */
  OFF,
  /** Power-cycle. */
  CYCLE,
  /** Boot from the network next time (or every time with {@code --persistent}). */
  PXE,
  /** Read the hardware inventory. */
  INSPECT,
  /** Read the power draw. */
  POWER;

  /** Parses a lowercase action name. */
  public static BmcAction parse(String value) {
    return valueOf(value.trim().toUpperCase(Locale.ROOT));
  }
}
