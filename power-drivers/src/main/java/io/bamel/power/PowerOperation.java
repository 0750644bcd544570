package io.bamel.power;

import java.util.Locale;

/** The operations of {@link PowerDriver}, as named in metrics ({@code operation} label). */
public enum PowerOperation {
  /** {@link PowerDriver#bmcPowerState}. */
  STATUS,
  /** {@link PowerDriver#powerOn}. */
  ON,
  /** {@link PowerDriver#powerOff}. */
  OFF,
  /** {@link PowerDriver#powerCycle}. */
  CYCLE,
  /** {@link PowerDriver#setBootDevice}. */
  BOOT,
  /** {@link PowerDriver#inspect}. */
  INSPECT,
  /** {@link PowerDriver#powerDraw}. */
  POWER_DRAW;

  /** The label value: lowercase, {@code _} kept. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
