package io.bamel.inventory.store;

/** A create found the node or pool already there. */
public final class AlreadyExistsException extends InventoryException {

  /** The named thing already exists. */
  public AlreadyExistsException(String what) {
    super(what + " already exists");
  }
}
