package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * A power action the node controller asks a node's BMC for: {@code power-on}, {@code power-off}
 * (graceful), {@code power-off-force} or {@code power-cycle}. The one power-action type of the
 * model: the controller decides with it, records it in {@code status.lastPowerAction} before the
 * call (the write-ahead), and names it in events; the node controller maps it to a driver's {@code
 * PowerCommand} in one place ({@code NodeBmc}).
 */
public enum PowerAction implements JsonEnum {
  POWER_ON("power-on"),
  POWER_OFF("power-off"),
  POWER_OFF_FORCE("power-off-force"),
  POWER_CYCLE("power-cycle");

  private final String json;

  PowerAction(String json) {
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
  public static PowerAction fromJson(String text) {
    return Enums.parse(values(), text, "lastPowerAction");
  }

  @Override
  public String toString() {
    return json;
  }
}
