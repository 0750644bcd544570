package io.bamel.inventory.api;

import io.bamel.inventory.model.Node;
import io.bamel.inventory.store.InventoryCache;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The first nodes of the cache that match a filter, in id order, together with the one revision
 * they show. The cache applies a revision to its map before it publishes that revision's number, so
 * a walk of the live map can see a value newer than the revision read before it. A walk is
 * therefore accepted only when the cache's revision did not move during it and no node it saw
 * carries a spec or status revision above the revision read first; otherwise it is retried, at most
 * {@link #ATTEMPTS} times.
 *
 * <p>What a walk cannot see from the values themselves: a node deleted, or only its BMC readings
 * changed, by the next revision in the instant between the cache applying it and publishing its
 * number (readings carry no revision and a deleted node leaves nothing to look at). Closing that
 * gap needs the cache to publish its map and revision together.
 */
final class CacheSnapshot {

  /** How many walks are tried before giving up (the caller then reads etcd at a revision). */
  static final int ATTEMPTS = 8;

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
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      // The cache applies a change to nodes, then pools, then publishes its revision: a walk that
      // overlapped any part of that (a pool's members already without a node, the revision not yet
      // moved) is retried, so a page is the inventory at exactly one revision.
      long version = cache.stateVersion();
      long revision = cache.revision();
      if ((version & 1) == 0) {
        List<Node> matching =
            walkInOrder(
                ids(cache, filter), id -> cache.node(id).orElse(null), filter, revision, limit + 1);
        if (matching != null && cache.stateVersion() == version) {
          return new Matching(revision, matching);
        }
      }
      Thread.yield();
    }
    return null;
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
