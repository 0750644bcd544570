package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The lifecycle state of a node, as the node controller observes and drives it. See
 * docs/architecture.md: {@code off -> powering-on -> joining -> ready -> draining -> powering-off
 * -> off}, and {@code error} from any step.
 */
public enum NodeState implements JsonEnum {
  OFF("off"),
  POWERING_ON("powering-on"),
  JOINING("joining"),
  READY("ready"),
  DRAINING("draining"),
  POWERING_OFF("powering-off"),
  ERROR("error"),
  UNKNOWN("unknown");

  private final String json;

  NodeState(String json) {
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
  public static NodeState fromJson(String text) {
    return Enums.parse(values(), text, "nodeState");
  }

  @Override
  public String toString() {
    return json;
  }
}
