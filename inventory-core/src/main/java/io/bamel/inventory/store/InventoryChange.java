package io.bamel.inventory.store;

/**
 * One change the {@link InventoryCache} saw: a node or a pool as it was before and after, at the
 * etcd revision of the change. A transaction that touched several keys of one node yields one
 * change for that node. {@code previous} is null for a creation, {@code current} null for a
 * deletion.
 */
public sealed interface InventoryChange permits NodeChange, PoolChange {

  /** The etcd revision at which the change happened. */
  long revision();
}
