package io.bamel.inventory.store;

import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeReadings;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeStatus;

/**
 * A node as read for an update: its spec and status with their revisions and stored bytes, and the
 * sequence number of its newest event, so that the next event gets the next number.
 */
record NodeRecord(
    String id,
    NodeSpec spec,
    long specRevision,
    byte[] specBytes,
    NodeStatus status,
    long statusRevision,
    byte[] statusBytes,
    NodeReadings readings,
    long lastEventSeq) {

  /** A node that is not stored: no spec, no status, no event. */
  static NodeRecord absent(String id) {
    return new NodeRecord(id, null, 0, null, null, 0, null, null, 0);
  }

  boolean exists() {
    return spec != null;
  }

  Node toNode() {
    return new Node(id, spec, specRevision, status, statusRevision, readings);
  }
}
