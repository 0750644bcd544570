package io.bamel.node;

import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeStatus;

/**
 * The state machine's answer: the status to store, the one action to take, the event recording a
 * transition (or a notable action) to store with the status, and the drift detected, if any.
 *
 * @param next the next status
 * @param action the action
 * @param event the event, or null when nothing notable happened
 * @param drift the drift found, or null
 */
public record Decision(NodeStatus next, Action action, NodeEvent event, Drift drift) {

  /** A difference between the BMC and the desired power state that bamel did not cause. */
  public enum Drift {
    /** The BMC reports off while the node should be on. */
    UNEXPECTED_OFF("off"),
    /** The BMC reports on while the node should be off. */
    UNEXPECTED_ON("on");

    private final String direction;

    Drift(String direction) {
      this.direction = direction;
    }

    /** The {@code direction} label of {@code bamel_power_drift_total}. */
    public String direction() {
      return direction;
    }
  }
}
