package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Which way a scaling trigger votes: {@code up} (add capacity) or {@code down} (remove it), in
 * {@link ScalingTrigger#scaleDirection()}. The JSON strings are the ones the field always had.
 */
public enum ScaleDirection implements JsonEnum {
  UP("up"),
  DOWN("down");

  private final String json;

  ScaleDirection(String json) {
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
   * @throws InvalidInputException naming the accepted values ({@code up}, {@code down}) when there
   *     is none
   */
  @JsonCreator
  public static ScaleDirection fromJson(String text) {
    return Enums.parse(values(), text, "scaleDirection");
  }

  @Override
  public String toString() {
    return json;
  }
}
