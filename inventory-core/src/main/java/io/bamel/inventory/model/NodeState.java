package io.bamel.inventory.model;

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

  @Override
  public String toString() {
    return json();
  }
}
