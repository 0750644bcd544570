package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonCreator;

/**
 * The power state a node should be in: {@code on} or {@code off}, written by people, DCIM syncs and
 * the pool controller in {@link NodeSpec#desiredPower()} and acted on by the node controller. What
 * the BMC last reported is a different type, {@link ObservedPower}; what a power driver reads is
 * {@code io.bamel.power.BmcPowerState}.
 */
public enum DesiredPower implements JsonEnum {
  ON,
  OFF;

  /**
   * The constant named {@code text} in JSON.
   *
   * @throws InvalidInputException naming the accepted values ({@code on}, {@code off}) when there
   *     is none, {@code unknown} included: a desired state is never unknown
   */
  @JsonCreator
  public static DesiredPower fromJson(String text) {
    return Enums.parse(values(), text, "powerState");
  }

  /** Whether this is {@link #ON}. */
  public boolean isOn() {
    return this == ON;
  }

  @Override
  public String toString() {
    return json();
  }
}
