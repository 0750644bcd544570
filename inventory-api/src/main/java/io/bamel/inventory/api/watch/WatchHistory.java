package io.bamel.inventory.api.watch;

import io.bamel.inventory.store.InventoryChange;
import java.util.List;

/**
 * Where the watch finds changes older than its in-memory history (after a restart, or once they
 * were evicted): etcd's own history, read again. The hub answers from memory when it can; only a
 * client resuming from before the hub's floor is served from here, then handed over to the hub.
 */
@FunctionalInterface
public interface WatchHistory {

  /**
   * The changes after revision {@code since} through revision {@code until}, in order, each as the
   * inventory cache published (or would have published) it: the same previous and current values,
   * in the same order within a revision. An implementation may stop reading once it has more than
   * {@code max} changes (the caller then answers 410: the client should list again).
   *
   * @throws io.bamel.inventory.store.CompactedException when etcd has compacted revision {@code
   *     since + 1} (the API answers 410)
   * @throws io.bamel.inventory.store.StoreUnavailableException when etcd fails (503)
   */
  List<InventoryChange> changes(long since, long until, int max);

  /** No history beyond the hub's: a resume from before the hub's floor is 410. */
  WatchHistory NONE =
      (since, until, max) -> {
        throw new UnsupportedOperationException("no watch history beyond memory");
      };
}
