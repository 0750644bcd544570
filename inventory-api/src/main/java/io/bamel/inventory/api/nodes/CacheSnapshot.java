package io.bamel.inventory.api.nodes;

import io.bamel.inventory.model.Node;
import io.bamel.inventory.store.InventoryCache;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * The first nodes of the cache that match a filter, in id order, together with the one revision
 * they show. The cache counts its changes with a seqlock ({@link InventoryCache#stateVersion()}:
 * odd while a revision is being applied and published), so a walk is accepted only when the version
 * was even before it and unchanged after it, and no node it saw carries a spec or status revision
 * above the revision read first. Otherwise the walk is retried: a reader that finds a change being
 * applied waits for it (spinning, then parking briefly), since the cache's critical section is
 * short, for at most {@link #PATIENCE_NANOS}; after that the caller reads etcd at a revision.
 * Giving up after a fixed number of immediate retries instead sent a page to etcd whenever the
 * cache thread was descheduled inside its critical section, which set the listing's p99 on busy
 * cores (figures: docs/benchmarks.md, "Figures behind the code").
 */
public final class CacheSnapshot {

  /** How long a reader retries before giving up (the caller then reads etcd at a revision). */
  static final long PATIENCE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  /** Immediate retries before a retry parks. */
  private static final int SPINS = 64;

  /** How long a retry parks once the spins are spent. */
  private static final long PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

  /** Matching nodes at {@code revision}, sorted by id. */
  record Matching(long revision, List<Node> nodes) {}

  private CacheSnapshot() {}

  /**
   * The first {@code limit + 1} matching nodes in id order, at one revision, or null when every
   * attempt saw the cache move. It walks the ids in order (the pools' members when the filter names
   * pools, else every node's id) and stops after {@code limit + 1} matches, so a page costs
   * O(limit) at any fleet size when most nodes match, instead of a walk and a sort of the fleet.
   */
  static Matching first(InventoryCache cache, NodeFilter filter, int limit) {
    long deadline = System.nanoTime() + PATIENCE_NANOS;
    for (int attempt = 1; ; attempt++) {
      // The cache applies a change to nodes, then pools, then publishes its revision, all with an
      // odd version: a walk that overlapped any part of that is retried, so a page is the
      // inventory at exactly one revision.
      long version = cache.stateVersion();
      if ((version & 1) == 0) {
        long revision = cache.revision();
        List<Node> matching =
            walkInOrder(
                ids(cache, filter), id -> cache.node(id).orElse(null), filter, revision, limit + 1);
        if (matching != null && cache.stateVersion() == version) {
          return new Matching(revision, matching);
        }
      }
      if (System.nanoTime() - deadline > 0) {
        return null;
      }
      if (attempt < SPINS) {
        Thread.onSpinWait();
      } else {
        LockSupport.parkNanos(PARK_NANOS);
      }
    }
  }

  /**
   * The first {@code wanted} nodes of {@code ids} (in order) that {@code filter} accepts, read
   * through {@code lookup} (null: gone); null when one of them is newer than {@code revision}. It
   * reads no id after the {@code wanted}th match.
   */
  static List<Node> walkInOrder(
      Iterable<String> ids,
      Function<String, Node> lookup,
      NodeFilter filter,
      long revision,
      int wanted) {
    List<Node> matching = new ArrayList<>();
    for (String id : ids) {
      Node node = lookup.apply(id);
      if (node == null) {
        continue;
      }
      if (node.specRevision() > revision || node.statusRevision() > revision) {
        return null;
      }
      if (filter.test(node)) {
        matching.add(node);
        if (matching.size() == wanted) {
          break;
        }
      }
    }
    return matching;
  }

  /**
   * The ids to walk, in order: every node's, or when the filter names pools, the merge of those
   * pools' members (a node is in one pool at most).
   */
  static Iterable<String> ids(InventoryCache cache, NodeFilter filter) {
    if (filter.pools().isEmpty()) {
      return cache.sortedNodeIds();
    }
    List<Iterable<String>> members = new ArrayList<>();
    for (String pool : filter.pools()) {
      cache.pool(pool).ifPresent(p -> members.add(p.sortedMembers()));
    }
    return members.size() == 1 ? members.get(0) : new SortedMerge(members);
  }
}
