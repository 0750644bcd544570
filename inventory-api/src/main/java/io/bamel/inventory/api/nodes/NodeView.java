package io.bamel.inventory.api.nodes;

import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeReadings;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeStatus;

/**
 * A node as the API shows it: its id, the spec's revision (the ETag), the spec, the status and its
 * revision (absent until the node controller wrote one), and the last BMC readings.
 */
public record NodeView(
    String id,
    long revision,
    NodeSpec spec,
    NodeStatus status,
    Long statusRevision,
    NodeReadings readings) {

  /** The view of a node read from the inventory. */
  public static NodeView of(Node node) {
    return new NodeView(
        node.id(),
        node.specRevision(),
        node.spec(),
        node.status(),
        node.status() == null ? null : node.statusRevision(),
        node.readings());
  }
}
