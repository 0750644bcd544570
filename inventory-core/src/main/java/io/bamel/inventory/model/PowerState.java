package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * A power state: desired ({@code on} or {@code off}, in a spec) or observed at the BMC ({@code on},
 * {@code off} or {@code unknown}, in a status).
 */
public enum PowerState implements JsonEnum {
  ON("on"),
  OFF("off"),
  UNKNOWN("unknown");

  private final String json;

  PowerState(String json) {
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
  public static PowerState fromJson(String text) {
    return Enums.parse(values(), text, "powerState");
  }

  @Override
  public String toString() {
    return json;
  }
}
