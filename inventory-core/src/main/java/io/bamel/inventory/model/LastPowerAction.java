package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The power action the node controller last asked a node's BMC for, recorded in its status before
 * the call (the write-ahead): {@code power-on}, {@code power-off} (graceful), {@code
 * power-off-force} or {@code power-cycle}.
 */
public enum LastPowerAction implements JsonEnum {
  POWER_ON("power-on"),
  POWER_OFF("power-off"),
  POWER_OFF_FORCE("power-off-force"),
  POWER_CYCLE("power-cycle");

  private final String json;

  LastPowerAction(String json) {
    this.json = json;
  }

  @JsonValue
  @Override
  public String json() {
    return json;
  }

  /**
   * The constant named {@code text} in JSON.
   *
   * @throws InvalidInputException naming the accepted values when there is none
   */
  @JsonCreator
  public static LastPowerAction fromJson(String text) {
    return Enums.parse(values(), text, "lastPowerAction");
  }

  @Override
  public String toString() {
    return json;
  }
}
