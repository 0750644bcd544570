package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonCreator;

/**
 * The power state the node controller last observed at a node's BMC, in {@link
 * NodeStatus#observedPower()}: {@code on}, {@code off}, or {@code unknown} when the BMC could not
 * be read (or a status has not been written yet). Only the node controller writes it; what a node
 * should be in is {@link DesiredPower}.
 */
public enum ObservedPower implements JsonEnum {
  ON,
  OFF,
  UNKNOWN;

  /**
   * The constant named {@code text} in JSON.
   *
   * @throws InvalidInputException naming the accepted values when there is none
   */
  @JsonCreator
  public static ObservedPower fromJson(String text) {
    return Enums.parse(values(), text, "powerState");
  }

  @Override
  public String toString() {
    return json();
  }
}
