package io.bamel.node;

import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeStatus;

/**
 * The state machine's answer: the status to store, the one action to take, the event recording a
 * transition (or a notable action) to store with the status, the drift detected, if any, and when
 * the node is to be looked at again.
 *
 * @param next the next status
 * @param action the action
 * @param event the event, or null when nothing notable happened
 * @param drift the drift found, or null
 * @param requeue when to look at the node again once the decision is carried out
 */
public record Decision(
    NodeStatus next, Action action, NodeEvent event, Drift drift, Requeue requeue) {

  /** Checks the requeue hint is set. */
  public Decision {
    if (requeue == null) {
      throw new IllegalArgumentException("requeue must be set");
    }
  }

  /** A decision looked at again at the next sync ({@link NodeStateMachine#decide} refines it). */
  public Decision(NodeStatus next, Action action, NodeEvent event, Drift drift) {
    this(next, action, event, drift, Requeue.NEXT_SYNC);
  }

  /** This decision with another requeue hint. */
  public Decision withRequeue(Requeue hint) {
    return new Decision(next, action, event, drift, hint);
  }

  /** When a node is looked at again after a decision was carried out. */
  public enum Requeue {
    /** At the next periodic sync (or the next spec change): the node is settled. */
    NEXT_SYNC,
    /** After the controller's poll interval: a step is under way (or its effect is awaited). */
    POLL,
    /** After the node's retry backoff (growing with consecutive failures): something failed. */
    BACKOFF
  }

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
