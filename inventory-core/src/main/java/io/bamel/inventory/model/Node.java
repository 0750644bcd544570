package io.bamel.inventory.model;

/**
 * A node as read from the inventory: its id, spec and status, each with the etcd mod revision it
 * was read at (0 when absent). The spec revision is the node's version for compare-and-swap and the
 * API's ETag.
 *
 * @param id the node id (see {@link Ids})
 * @param spec the spec, never null for a node that exists
 * @param specRevision the spec's mod revision
 * @param status the status, null until the node controller has written one
 * @param statusRevision the status's mod revision, 0 when there is none
 * @param readings the last BMC readings, null when none
 */
public record Node(
    String id,
    NodeSpec spec,
    long specRevision,
    NodeStatus status,
    long statusRevision,
    NodeReadings readings) {

  /** The status, or an {@code unknown} one when the controller has not written any yet. */
  public NodeStatus statusOrInitial() {
    return status != null
        ? status
        : NodeStatus.builder()
            .state(NodeState.UNKNOWN)
            .observedPower(ObservedPower.UNKNOWN)
            .build();
  }

  /** The lifecycle state, {@code unknown} without a status. */
  public NodeState state() {
    return status == null ? NodeState.UNKNOWN : status.stateOrUnknown();
  }
}
