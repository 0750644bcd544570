package io.bamel.inventory.store;

import io.bamel.inventory.model.Node;

/** A node changed: created ({@code previous} null), updated, or deleted ({@code current} null). */
public record NodeChange(String id, Node previous, Node current, long revision)
    implements InventoryChange {

  /** Whether the spec changed (not just the status or readings). */
  public boolean specChanged() {
    long before = previous == null ? 0 : previous.specRevision();
    long after = current == null ? 0 : current.specRevision();
    return before != after;
  }
}
