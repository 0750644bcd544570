package io.bamel.inventory.model;

/**
 * The power state a node should be in: {@code on} or {@code off}, written by people, DCIM syncs and
 * the pool controller in {@link NodeSpec#desiredPower()} and acted on by the node controller. What
 * the BMC last reported is a different type, {@link ObservedPower}; what a power driver reads is
 * {@code io.bamel.power.BmcPowerState}. A desired state is never {@code unknown}: JSON that says so
 * is refused, naming {@code on} and {@code off}.
 */
public enum DesiredPower implements JsonEnum {
  ON,
  OFF;

  /** Whether this is {@link #ON}. */
  public boolean isOn() {
    return this == ON;
  }

  @Override
  public String toString() {
    return json();
  }
}
