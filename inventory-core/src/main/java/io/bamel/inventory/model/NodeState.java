package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonCreator;

/**
 * The lifecycle state of a node, as the node controller observes and drives it. See
 * docs/architecture.md: {@code off -> powering-on -> joining -> ready -> draining -> powering-off
 * -> off}, and {@code error} from any step.
 */
public enum NodeState implements JsonEnum {
  OFF,
  POWERING_ON,
  JOINING,
  READY,
  DRAINING,
  POWERING_OFF,
  ERROR,
  UNKNOWN;

  /**
   * The constant named {@code text} in JSON.
   *
   * @throws InvalidInputException naming the accepted values when there is none
   */
  @JsonCreator
  public static NodeState fromJson(String text) {
    return Enums.parse(values(), text, "nodeState");
  }

  @Override
  public String toString() {
    return json();
  }
}
