package io.bamel.inventory.api.nodes;

import io.bamel.inventory.api.http.Gzip;
import io.bamel.inventory.api.http.ListingResponse;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Recent listings, each with the cache revision it was built at: the same query at the same
 * revision shows the same nodes, so its bytes are served again instead of filtering, sorting and
 * joining thousands of nodes. Each entry holds the identity (plain JSON) bytes and, once a client
 * asked for them, the gzip bytes, built at most once per entry. The memo is bounded by the total of
 * those bytes: the least recently used entries are dropped to stay under it, and a listing larger
 * than the bound is not kept (its {@link Entry} still serves the one request). Thread-safe.
 */
final class ListingMemo {

  /** The default bound: 32 MiB of identity and gzip bytes. */
  static final long DEFAULT_MAX_BYTES = 32L * 1024 * 1024;

  /** One listing's bytes at one revision; the gzip form is built on first use, once. */
  final class Entry implements ListingResponse.Body {
    private final String query;
    private final long revision;
    private final byte[] identity;
    private byte[] gzip;
    // The bytes this entry adds to the memo's total; guarded by the memo's lock.
    private long counted;

    private Entry(String query, long revision, byte[] identity) {
      this.query = query;
      this.revision = revision;
      this.identity = identity;
    }

    long revision() {
      return revision;
    }

    @Override
    public byte[] identity() {
      return identity;
    }

    @Override
    public synchronized byte[] gzip() {
      if (gzip == null) {
        gzip = Gzip.compress(identity);
        grew(this, gzip.length);
      }
      return gzip;
    }
  }

  private final long maxBytes;
  private final Map<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
  private long bytes;
  private long gzipBuilds;

  ListingMemo() {
    this(DEFAULT_MAX_BYTES);
  }

  ListingMemo(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  /** The listing of {@code query} built at {@code revision}, or null. */
  synchronized Entry get(String query, long revision) {
    Entry e = entries.get(query);
    return e != null && e.revision == revision ? e : null;
  }

  /**
   * Remembers the listing of {@code query} built at {@code revision} (replacing the query's older
   * one) and returns its entry; a listing over the bound is returned without being kept.
   */
  synchronized Entry put(String query, long revision, byte[] identity) {
    Entry entry = new Entry(query, revision, identity);
    Entry old = entries.remove(query);
    if (old != null) {
      bytes -= size(old);
    }
    if (identity.length <= maxBytes) {
      entries.put(query, entry);
      entry.counted = identity.length;
      bytes += entry.counted;
      evictBeyond(entry);
    }
    return entry;
  }

  /** An entry that is not remembered (a page that is never served twice from memory). */
  Entry detached(long revision, byte[] identity) {
    return new Entry(null, revision, identity);
  }

  /** The identity and gzip bytes held. */
  synchronized long bytes() {
    return bytes;
  }

  /** How many listings are held. */
  synchronized int size() {
    return entries.size();
  }

  /** How many gzip forms were built (for tests: once per listing and revision). */
  synchronized long gzipBuilds() {
    return gzipBuilds;
  }

  private synchronized void grew(Entry entry, int gzipBytes) {
    gzipBuilds++;
    if (entry.query != null && entries.get(entry.query) == entry) {
      entry.counted += gzipBytes;
      bytes += gzipBytes;
      evictBeyond(entry);
      if (bytes > maxBytes) {
        entries.remove(entry.query);
        bytes -= size(entry);
      }
    }
  }

  /** Drops the least recently used entries other than {@code keep} until under the bound. */
  private void evictBeyond(Entry keep) {
    Iterator<Entry> eldest = entries.values().iterator();
    while (bytes > maxBytes && eldest.hasNext()) {
      Entry e = eldest.next();
      if (e != keep) {
        eldest.remove();
        bytes -= size(e);
      }
    }
  }

  private static long size(Entry e) {
    return e.counted;
  }
}
