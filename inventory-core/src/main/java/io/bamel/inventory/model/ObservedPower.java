package io.bamel.inventory.model;

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

  @Override
  public String toString() {
    return json();
  }
}
