package io.bamel.inventory.api;

import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryChange;
import io.bamel.inventory.store.InventoryListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A stand-in for etcd's history while the store layer cannot replay it: the cache's changes as
 * recorded from the start of a test (a listener added before any write). Compaction is real: each
 * read first asks etcd for revision {@code since + 1}, which fails with the store's {@code
 * CompactedException} once etcd has compacted it.
 */
final class RecordedHistory implements WatchHistory, InventoryListener {

  private final EtcdInventory store;
  private final List<InventoryChange> recorded = new CopyOnWriteArrayList<>();

  RecordedHistory(EtcdInventory store) {
    this.store = store;
  }

  @Override
  public void onChange(InventoryChange change) {
    recorded.add(change);
  }

  @Override
  public List<InventoryChange> changes(long since, long until, int max) {
    store.listNodes(null, 1, since + 1);
    List<InventoryChange> out =
        recorded.stream()
            .filter(c -> WatchEvent.revisionOf(c) > since && WatchEvent.revisionOf(c) <= until)
            .toList();
    return out.size() > max ? out.subList(0, max + 1) : out;
  }
}
