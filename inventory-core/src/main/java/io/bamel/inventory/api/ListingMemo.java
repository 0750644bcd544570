package io.bamel.inventory.api;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The last few first-page listings, each with the cache revision it was built at: the same query at
 * the same revision shows the same nodes, so its bytes are served again instead of filtering,
 * sorting and joining thousands of nodes. Bounded in entries and in the size of each entry.
 */
final class ListingMemo {

  private static final int MAX_ENTRIES = 16;
  private static final int MAX_BYTES = 4 * 1024 * 1024;

  private record Remembered(long revision, byte[] body) {}

  private final Map<String, Remembered> entries =
      new LinkedHashMap<>(MAX_ENTRIES, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Remembered> eldest) {
          return size() > MAX_ENTRIES;
        }
      };

  /** The body of {@code query} built at {@code revision}, or null. */
  synchronized byte[] get(String query, long revision) {
    Remembered e = entries.get(query);
    return e != null && e.revision() == revision ? e.body() : null;
  }

  /** Remembers the body of {@code query} built at {@code revision}. */
  synchronized void put(String query, long revision, byte[] body) {
    if (body.length <= MAX_BYTES) {
      entries.put(query, new Remembered(revision, body));
    }
  }
}
