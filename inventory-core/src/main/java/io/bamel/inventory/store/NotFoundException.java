package io.bamel.inventory.store;

/** The node or pool does not exist. */
public final class NotFoundException extends InventoryException {

  /** The named thing was not found. */
  public NotFoundException(String what) {
    super(what + " not found");
  }
}
