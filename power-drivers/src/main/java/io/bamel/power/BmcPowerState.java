package io.bamel.power;

import java.util.Locale;

/**
 * A power state as a BMC reports it, including the transitional states some BMCs report while a
 * change is under way.
 *
 * <p>{@link #basic()} folds the transitional states into the three observed states the inventory
 * records ({@code on}, {@code off}, {@code unknown}).
 */
public enum BmcPowerState {
  /** The system is powered on. */
  ON,
  /** The system is powered off (possibly on standby power). */
  OFF,
  /** A power-on was accepted and has not completed yet. */
  POWERING_ON,
  /** A power-off was accepted and has not completed yet. */
  POWERING_OFF,
  /** The BMC could not tell, or there is no way to know (Wake-on-LAN without a probe). */
  UNKNOWN;

  /**
   * The wire name: {@code on}, {@code off}, {@code powering-on}, {@code powering-off}, {@code
   * unknown}.
   */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** {@link #ON}, {@link #OFF} or {@link #UNKNOWN}: a transitional state is not yet either. */
  public BmcPowerState basic() {
    return switch (this) {
      case ON, OFF -> this;
      default -> UNKNOWN;
    };
  }

  /** Whether a change is under way. */
  public boolean transitional() {
    return this == POWERING_ON || this == POWERING_OFF;
  }
}
