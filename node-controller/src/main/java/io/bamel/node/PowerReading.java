package io.bamel.node;

import io.bamel.inventory.model.ObservedPower;
import io.bamel.power.BmcPowerState;

/**
 * What the BMC said about a node's power: a state, or the error that kept it from answering.
 *
 * @param state the reported state (possibly transitional), or null when the read failed
 * @param error why the read failed, or null
 */
public record PowerReading(BmcPowerState state, String error) {

  /** A successful read. */
  public static PowerReading of(BmcPowerState state) {
    return new PowerReading(state, null);
  }

  /** A failed read. */
  public static PowerReading failed(String error) {
    return new PowerReading(null, error);
  }

  /** Whether the read failed. */
  public boolean failed() {
    return state == null;
  }

  /** The observed state for the inventory ({@code on}, {@code off}, {@code unknown}). */
  public ObservedPower observed() {
    if (state == null) {
      return ObservedPower.UNKNOWN;
    }
    return switch (state.basic()) {
      case ON -> ObservedPower.ON;
      case OFF -> ObservedPower.OFF;
      default -> ObservedPower.UNKNOWN;
    };
  }
}
