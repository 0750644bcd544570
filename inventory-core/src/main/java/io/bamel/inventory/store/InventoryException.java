package io.bamel.inventory.store;

/**
 * Base of the store's failures. Subclasses say what went wrong in terms a caller can act on: {@link
 * NotFoundException}, {@link AlreadyExistsException}, {@link ConflictException}, {@link
 * FencedException}, {@link StoreUnavailableException}. Messages never contain secrets (the store
 * holds none).
 */
public class InventoryException extends RuntimeException {

  /** An exception with a message. */
  public InventoryException(String message) {
    super(message);
  }

  /** An exception with a message and a cause. */
  public InventoryException(String message, Throwable cause) {
    super(message, cause);
  }
}
