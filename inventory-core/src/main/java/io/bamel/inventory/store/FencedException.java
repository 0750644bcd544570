package io.bamel.inventory.store;

/**
 * A controller write was refused because the writer no longer holds the leadership it was fenced
 * by: another process leads now. The writer must stop acting.
 */
public final class FencedException extends InventoryException {

  /** The fence on {@code key} no longer holds. */
  public FencedException(String key) {
    super("not the leader any more: " + key + " is held by another process");
  }
}
