package io.bamel.inventory.store;

/** etcd could not be reached or did not answer in time. Transient: retry later. */
public final class StoreUnavailableException extends InventoryException {

  /** etcd failed with {@code cause}. */
  public StoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
