package io.bamel.inventory.store;

import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeReadings;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.Pool;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PoolStatus;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.pcollections.TreePSet;

/**
 * The cache's content: nodes and pools decoded from etcd keys. One thread writes (the cache's); any
 * thread reads the published maps. Applying a group of keys changed at one revision returns one
 * change per node and pool touched.
 */
final class CacheState {

  /** Raw parts of a node; a node is visible once it has a spec. */
  private record NodeParts(
      NodeSpec spec, long specRev, NodeStatus status, long statusRev, NodeReadings readings) {
    static final NodeParts EMPTY = new NodeParts(null, 0, null, 0, null);

    Node toNode(String id) {
      return spec == null ? null : new Node(id, spec, specRev, status, statusRev, readings);
    }
  }

  /**
   * Raw parts of a pool; members are a persistent set, replaced (in O(log n), sharing structure) on
   * each change, so the published {@link Pool} of every revision shares it rather than copying.
   */
  private static final class PoolParts {
    PoolConfig config;
    long configRev;
    PoolStatus status;
    long statusRev;
    TreePSet<String> members = TreePSet.empty();
    // While a listing is applied (replace): its members, in key order, built into members at once.
    List<String> listedMembers;

    Pool toPool(String name) {
      if (config == null && status == null && members.isEmpty()) {
        return null;
      }
      return new Pool(name, config, configRev, status, statusRev, members);
    }
  }

  private final Map<String, NodeParts> nodeParts = new HashMap<>();
  private final Map<String, PoolParts> poolParts = new HashMap<>();
  private final ConcurrentHashMap<String, Node> nodes = new ConcurrentHashMap<>();
  // The ids of the visible nodes in order: persistent, replaced on each change, read by any thread.
  private volatile TreePSet<String> sortedIds = TreePSet.empty();
  private final ConcurrentHashMap<String, Pool> pools = new ConcurrentHashMap<>();
  private final SpecIndex specIndex = new SpecIndex();

  Map<String, Node> nodes() {
    return nodes;
  }

  Map<String, Pool> pools() {
    return pools;
  }

  /** The index of the visible nodes' identifying spec values. */
  SpecIndex specIndex() {
    return specIndex;
  }

  /** The visible nodes' ids in id order, as of the last applied change (an immutable snapshot). */
  java.util.NavigableSet<String> sortedIds() {
    return sortedIds;
  }

  /**
   * Applies keys changed at {@code revision} (a deleted key has a null value) and returns one
   * change per node and pool whose visible value changed.
   */
  List<InventoryChange> apply(Collection<KeyChange> changes, long revision) {
    return apply(changes, revision, false);
  }

  /**
   * As {@link #apply(Collection, long)}; with {@code listing}, the keys are a whole listing applied
   * to an empty state, and the sorted sets (the visible ids, each pool's members) are built once
   * from it in O(n) rather than by one persistent insert (O(log n) allocations) per key.
   */
  private List<InventoryChange> apply(
      Collection<KeyChange> changes, long revision, boolean listing) {
    Set<String> touchedNodes = new LinkedHashSet<>();
    Set<String> touchedPools = new LinkedHashSet<>();
    for (KeyChange change : changes) {
      KeyRef ref = change.ref();
      switch (ref.kind()) {
        case NODE_SPEC, NODE_STATUS, NODE_READINGS -> {
          applyNodeKey(ref, change);
          touchedNodes.add(ref.id());
        }
        case POOL_CONFIG, POOL_STATUS, POOL_MEMBER -> {
          applyPoolKey(ref, change, listing);
          touchedPools.add(ref.pool());
        }
        default -> {}
      }
    }
    if (listing) {
      for (String name : touchedPools) {
        PoolParts parts = poolParts.get(name);
        if (parts != null && parts.listedMembers != null) {
          parts.members = sortedSet(parts.listedMembers);
          parts.listedMembers = null;
        }
      }
    }
    List<InventoryChange> out = new ArrayList<>();
    for (String id : touchedNodes) {
      NodeParts parts = nodeParts.getOrDefault(id, NodeParts.EMPTY);
      Node next = parts.toNode(id);
      Node previous = next == null ? nodes.remove(id) : nodes.put(id, next);
      NodeSpec before = previous == null ? null : previous.spec();
      NodeSpec after = next == null ? null : next.spec();
      if (before != after) {
        specIndex.replace(id, before, after);
      }
      if (!listing && previous == null && next != null) {
        sortedIds = sortedIds.plus(id);
      } else if (!listing && previous != null && next == null) {
        sortedIds = sortedIds.minus(id);
      }
      if (parts.spec == null && parts.status == null && parts.readings == null) {
        nodeParts.remove(id);
      }
      if (!Objects.equals(previous, next)) {
        out.add(new NodeChange(id, previous, next, revision));
      }
    }
    if (listing) {
      sortedIds = sortedSet(nodes.keySet());
    }
    for (String name : touchedPools) {
      PoolParts parts = poolParts.get(name);
      Pool next = parts == null ? null : parts.toPool(name);
      if (next == null) {
        poolParts.remove(name);
      }
      Pool previous = next == null ? pools.remove(name) : pools.put(name, next);
      if (!Objects.equals(previous, next)) {
        out.add(new PoolChange(name, previous, next, revision));
      }
    }
    return out;
  }

  /**
   * Replaces the whole content with a fresh listing and returns the changes between the two, so
   * that listeners that missed events (compaction, a long outage) catch up.
   */
  List<InventoryChange> replace(List<KeyChange> listing, long revision) {
    Set<String> oldNodes = new HashSet<>(nodeParts.keySet());
    Set<String> oldPools = new HashSet<>(poolParts.keySet());
    nodeParts.clear();
    poolParts.clear();
    List<InventoryChange> changes = apply(listing, revision, true);
    Set<String> reported = new HashSet<>();
    for (InventoryChange c : changes) {
      reported.add(c instanceof NodeChange n ? "n/" + n.id() : "p/" + ((PoolChange) c).name());
    }
    for (String id : oldNodes) {
      if (!nodeParts.containsKey(id) && !reported.contains("n/" + id)) {
        Node gone = nodes.remove(id);
        if (gone != null) {
          sortedIds = sortedIds.minus(id);
          specIndex.replace(id, gone.spec(), null);
          changes.add(new NodeChange(id, gone, null, revision));
        }
      }
    }
    for (String name : oldPools) {
      if (!poolParts.containsKey(name) && !reported.contains("p/" + name)) {
        Pool gone = pools.remove(name);
        if (gone != null) {
          changes.add(new PoolChange(name, gone, null, revision));
        }
      }
    }
    return changes;
  }

  private void applyNodeKey(KeyRef ref, KeyChange change) {
    NodeParts p = nodeParts.getOrDefault(ref.id(), NodeParts.EMPTY);
    Object v = change.value();
    long rev = v == null ? 0 : change.modRevision();
    p =
        switch (ref.kind()) {
          case NODE_SPEC -> new NodeParts((NodeSpec) v, rev, p.status, p.statusRev, p.readings);
          case NODE_STATUS -> new NodeParts(p.spec, p.specRev, (NodeStatus) v, rev, p.readings);
          default -> new NodeParts(p.spec, p.specRev, p.status, p.statusRev, (NodeReadings) v);
        };
    nodeParts.put(ref.id(), p);
  }

  private void applyPoolKey(KeyRef ref, KeyChange change, boolean listing) {
    PoolParts p = poolParts.computeIfAbsent(ref.pool(), k -> new PoolParts());
    Object v = change.value();
    switch (ref.kind()) {
      case POOL_CONFIG -> {
        p.config = (PoolConfig) v;
        p.configRev = v == null ? 0 : change.modRevision();
      }
      case POOL_STATUS -> {
        p.status = (PoolStatus) v;
        p.statusRev = v == null ? 0 : change.modRevision();
      }
      default -> {
        if (listing && v != null) {
          if (p.listedMembers == null) {
            p.listedMembers = new ArrayList<>();
          }
          p.listedMembers.add(ref.id());
        } else if (v == null) {
          p.members = p.members.minus(ref.id());
        } else {
          p.members = p.members.plus(ref.id());
        }
      }
    }
  }

  /** A persistent sorted set of {@code ids}, built in O(n) once they are sorted. */
  private static TreePSet<String> sortedSet(Collection<String> ids) {
    return TreePSet.fromSortedSet(new TreeSet<>(ids));
  }
}
