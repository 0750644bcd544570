package io.bamel.inventory.api.nodes;

import io.bamel.inventory.api.http.ApiJson;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.store.InventoryChange;
import io.bamel.inventory.store.InventoryListener;
import io.bamel.inventory.store.NodeChange;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The encoded JSON of each node's {@link NodeView}, kept while the cache's node value stays the
 * same object (cache values are immutable and replaced on change), so that a listing of thousands
 * of nodes concatenates bytes instead of encoding them again. Entries of deleted nodes are dropped.
 */
public final class NodeJson implements InventoryListener {

  private record Entry(Node node, byte[] json) {}

  private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

  /** The JSON of {@code node}'s view. */
  byte[] of(Node node) {
    Entry entry = entries.get(node.id());
    if (entry != null && entry.node() == node) {
      return entry.json();
    }
    byte[] json = ApiJson.write(NodeView.of(node));
    entries.put(node.id(), new Entry(node, json));
    return json;
  }

  @Override
  public void onChange(InventoryChange change) {
    if (change instanceof NodeChange c && c.current() == null) {
      entries.remove(c.id());
    }
  }
}
