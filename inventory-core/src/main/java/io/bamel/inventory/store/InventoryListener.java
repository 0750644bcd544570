package io.bamel.inventory.store;

/**
 * Receives the {@link InventoryCache}'s changes: each one once, in revision order, on the cache's
 * own dispatch thread (never on jetcd's). A listener should return quickly (hand work to a queue);
 * a slow listener delays the others. An exception thrown by a listener is logged and does not stop
 * the cache.
 */
@FunctionalInterface
public interface InventoryListener {

  /** Called for every change after the listener was added. */
  void onChange(InventoryChange change);
}
