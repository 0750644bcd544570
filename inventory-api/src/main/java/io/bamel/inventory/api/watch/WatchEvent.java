package io.bamel.inventory.api.watch;

import io.bamel.inventory.api.http.ApiJson;
import io.bamel.inventory.api.nodes.NodeView;
import io.bamel.inventory.api.pools.PoolView;
import io.bamel.inventory.store.InventoryChange;
import io.bamel.inventory.store.NodeChange;
import io.bamel.inventory.store.PoolChange;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One change in the watch stream: a node or pool change at an etcd revision, with its position
 * among the changes of that revision ({@code index}), so that a client can resume exactly after it
 * ({@code id: revision-index}). The JSON is encoded once, when first sent.
 */
public final class WatchEvent {

  private final long revision;
  private final int index;
  private final InventoryChange change;
  private volatile String json;

  WatchEvent(long revision, int index, InventoryChange change) {
    this.revision = revision;
    this.index = index;
    this.change = change;
  }

  /** The etcd revision of a cache change. */
  static long revisionOf(InventoryChange change) {
    return change instanceof NodeChange n
        ? n.revision()
        : change instanceof PoolChange p ? p.revision() : 0;
  }

  /**
   * Events for changes in order, numbered as the hub numbers them: each revision's changes from
   * index 0 on.
   */
  static List<WatchEvent> numbered(List<InventoryChange> changes) {
    List<WatchEvent> events = new ArrayList<>(changes.size());
    long last = -1;
    int index = 0;
    for (InventoryChange c : changes) {
      long revision = revisionOf(c);
      index = revision == last ? index + 1 : 0;
      last = revision;
      events.add(new WatchEvent(revision, index, c));
    }
    return events;
  }

  long revision() {
    return revision;
  }

  /** The cache's change this event shows. */
  InventoryChange change() {
    return change;
  }

  int index() {
    return index;
  }

  /** {@code revision-index}, the SSE id. */
  String id() {
    return revision + "-" + index;
  }

  /** {@code node} or {@code pool}, the SSE event name. */
  String name() {
    return change instanceof NodeChange ? "node" : "pool";
  }

  /** Whether this event comes after position {@code (rev, idx)}. */
  boolean after(long rev, int idx) {
    return revision > rev || revision == rev && index > idx;
  }

  /**
   * {@code {"type":"added|modified|deleted","revision":R,"id"|"name":...,"node"|"pool":view}}; a
   * deleted object's view is its last value.
   */
  String json() {
    String j = json;
    if (j == null) {
      Map<String, Object> body = new LinkedHashMap<>();
      if (change instanceof NodeChange c) {
        body.put("type", type(c.previous(), c.current()));
        body.put("revision", revision);
        body.put("id", c.id());
        body.put("node", NodeView.of(c.current() != null ? c.current() : c.previous()));
      } else if (change instanceof PoolChange c) {
        body.put("type", type(c.previous(), c.current()));
        body.put("revision", revision);
        body.put("name", c.name());
        body.put("pool", PoolView.of(c.current() != null ? c.current() : c.previous(), true));
      }
      j = new String(ApiJson.write(body), java.nio.charset.StandardCharsets.UTF_8);
      json = j;
    }
    return j;
  }

  private static String type(Object previous, Object current) {
    return previous == null ? "added" : current == null ? "deleted" : "modified";
  }
}
