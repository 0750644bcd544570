package io.bamel.inventory.api;

import io.bamel.inventory.model.Node;
import io.bamel.inventory.store.InventoryCache;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/**
 * The nodes of the cache that match a filter, sorted by id, together with the one revision they
 * show. The cache applies a revision to its map before it publishes that revision's number, so a
 * walk of the live map can see a value newer than the revision read before it. A walk is therefore
 * accepted only when the cache's revision did not move during it and no node it saw carries a spec
 * or status revision above the revision read first; otherwise it is retried, at most {@link
 * #ATTEMPTS} times.
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

  /** The matching nodes at one revision, or null when every attempt saw the cache move. */
  static Matching take(InventoryCache cache, Predicate<Node> filter) {
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      long revision = cache.revision();
      List<Node> matching = walk(cache, filter, revision);
      if (matching != null && cache.revision() == revision) {
        matching.sort(Comparator.comparing(Node::id));
        return new Matching(revision, matching);
      }
      Thread.yield();
    }
    return null;
  }

  /** The matching nodes, or null as soon as a node newer than {@code revision} shows up. */
  private static List<Node> walk(InventoryCache cache, Predicate<Node> filter, long revision) {
    List<Node> matching = new ArrayList<>();
    for (Node node : cache.nodes()) {
      if (node.specRevision() > revision || node.statusRevision() > revision) {
        return null;
      }
      if (filter.test(node)) {
        matching.add(node);
      }
    }
    return matching;
  }
}
