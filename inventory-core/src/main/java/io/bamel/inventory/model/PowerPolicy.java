package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonCreator;

/**
 * Who owns a node's desired power state: its pool's controller ({@code pool}) or an operator
 * ({@code manual}).
 */
public enum PowerPolicy implements JsonEnum {
  POOL,
  MANUAL;

  /**
   * The constant named {@code text} in JSON.
   *
   * @throws InvalidInputException naming the accepted values when there is none
   */
  @JsonCreator
  public static PowerPolicy fromJson(String text) {
    return Enums.parse(values(), text, "powerPolicy");
  }

  @Override
  public String toString() {
    return json();
  }
}
