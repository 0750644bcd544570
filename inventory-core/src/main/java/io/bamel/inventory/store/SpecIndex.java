package io.bamel.inventory.store;

import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.PlaceholderSerials;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The cache's index from each identifying spec value (serial, MAC address, management address,
 * inventory id) to the node whose spec holds it, kept up to date as the cache applies each change
 * (O(1) per change), so that a sync matches and checks its items without an index of the whole
 * fleet built per request. One thread writes (the cache's); any thread reads.
 *
 * <p>etcd's guarded index keys keep serial, MAC and management address unique; the inventory id is
 * not guarded, and data written by hand may repeat a value. A value several nodes hold names the
 * one that took it first; when that node lets it go, the smallest other id holding it takes over.
 */
public final class SpecIndex {

  /** A spec field the index covers. */
  public enum Field {
    /** {@code spec.serial}, unless it is a placeholder ({@link PlaceholderSerials}). */
    SERIAL(s -> PlaceholderSerials.identifying(s.serial())),
    /** {@code spec.macAddress}. */
    MAC_ADDRESS(NodeSpec::macAddress),
    /** {@code spec.mgmtAddress}. */
    MGMT_ADDRESS(NodeSpec::mgmtAddress),
    /** {@code spec.inventoryId}. */
    INVENTORY_ID(NodeSpec::inventoryId);

    private final Function<NodeSpec, String> value;

    Field(Function<NodeSpec, String> value) {
      this.value = value;
    }

    /** The field's value in {@code spec} (null when {@code spec} is null or has none). */
    public String of(NodeSpec spec) {
      return spec == null ? null : value.apply(spec);
    }
  }

  private static final Field[] FIELDS = Field.values();

  private final Map<Field, ConcurrentHashMap<String, String>> holders = new EnumMap<>(Field.class);
  // Values held by more than one node: the ids beyond the holder (rare; only the cache thread).
  private final Map<Field, Map<String, Set<String>>> others = new EnumMap<>(Field.class);

  SpecIndex() {
    for (Field f : FIELDS) {
      holders.put(f, new ConcurrentHashMap<>());
      others.put(f, new HashMap<>());
    }
  }

  /** The node holding {@code value} in {@code field}, if any. */
  public Optional<String> holder(Field field, String value) {
    return value == null ? Optional.empty() : Optional.ofNullable(holders.get(field).get(value));
  }

  /** How many values of {@code field} are indexed (for tests). */
  int size(Field field) {
    return holders.get(field).size();
  }

  /** Node {@code id}'s spec went from {@code before} to {@code after} (either may be null). */
  void replace(String id, NodeSpec before, NodeSpec after) {
    for (Field f : FIELDS) {
      String old = f.of(before);
      String now = f.of(after);
      if (old != null && old.equals(now)) {
        continue;
      }
      if (old != null) {
        release(f, old, id);
      }
      if (now != null) {
        take(f, now, id);
      }
    }
  }

  /** Forgets every value. */
  void clear() {
    for (Field f : FIELDS) {
      holders.get(f).clear();
      others.get(f).clear();
    }
  }

  private void take(Field f, String value, String id) {
    String holder = holders.get(f).putIfAbsent(value, id);
    if (holder != null && !holder.equals(id)) {
      others.get(f).computeIfAbsent(value, v -> new TreeSet<>()).add(id);
    }
  }

  private void release(Field f, String value, String id) {
    ConcurrentHashMap<String, String> map = holders.get(f);
    Map<String, Set<String>> more = others.get(f);
    Set<String> rest = more.get(value);
    if (id.equals(map.get(value))) {
      if (rest == null) {
        map.remove(value, id);
      } else {
        map.replace(value, id, ((TreeSet<String>) rest).pollFirst());
        if (rest.isEmpty()) {
          more.remove(value);
        }
      }
    } else if (rest != null) {
      rest.remove(id);
      if (rest.isEmpty()) {
        more.remove(value);
      }
    }
  }
}
