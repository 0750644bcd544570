package io.bamel.dcim.netbox;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * This process's memory of webhooks, bounded: the deliveries seen (by {@link WebhookEvent#key()}:
 * NetBox's request id, the object and the event), so that a delivery NetBox sends again is dropped
 * before it is queued, and the devices deleted, so that a late {@code created} or {@code updated}
 * of a deleted device does not bring it back. The durable guard against late events is the node's
 * {@code netbox-last-updated} label (shared by every replica); this memory only spares work and
 * covers deletions until the next pull. Thread-safe.
 */
final class WebhookLedger {

  private final Map<String, Boolean> seen;
  private final Map<Long, Boolean> deleted;

  WebhookLedger(int capacity) {
    this.seen = lru(capacity);
    this.deleted = lru(capacity);
  }

  private static <K> Map<K, Boolean> lru(int capacity) {
    return new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<K, Boolean> eldest) {
        return size() > capacity;
      }
    };
  }

  /** Records the delivery; false when it was seen already. */
  synchronized boolean firstTime(WebhookEvent e) {
    return seen.put(e.key(), Boolean.TRUE) == null;
  }

  /** Forgets a delivery (it could not be queued; NetBox will send it again). */
  synchronized void forget(WebhookEvent e) {
    seen.remove(e.key());
  }

  synchronized void markDeleted(long device) {
    deleted.put(device, Boolean.TRUE);
  }

  synchronized boolean wasDeleted(long device) {
    return deleted.containsKey(device);
  }
}
