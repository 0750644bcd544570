package io.bamel.inventory.sync;

import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.store.SpecIndex;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The fields no two nodes may share: serial, MAC address and management address. The holder of each
 * value as a sync plan leaves the inventory: the values the plan took or gave up, over the
 * inventory's own index ({@link SyncPlanner.Current#holder}), which it reads and never changes; so
 * its cost is the plan's items, not the fleet. Pure and single-threaded (one per plan).
 */
final class UniqueFields {

  /** A value already held by another node. */
  record Clash(String field, String value, String holder) {}

  private static final SpecIndex.Field[] UNIQUE = {
    SpecIndex.Field.SERIAL, SpecIndex.Field.MAC_ADDRESS, SpecIndex.Field.MGMT_ADDRESS
  };

  private final SyncPlanner.Current base;
  // Per field, the values the plan took (the holder) or gave up (empty).
  private final Map<SpecIndex.Field, Map<String, Optional<String>>> changed =
      new EnumMap<>(SpecIndex.Field.class);

  UniqueFields(SyncPlanner.Current base) {
    this.base = base;
    for (SpecIndex.Field f : UNIQUE) {
      changed.put(f, new HashMap<>());
    }
  }

  /** Records the unique values of node {@code id} (a value already held keeps its holder). */
  void add(String id, NodeSpec spec) {
    for (SpecIndex.Field f : UNIQUE) {
      String value = f.of(spec);
      if (value != null && holder(f, value) == null) {
        changed.get(f).put(value, Optional.of(id));
      }
    }
  }

  /** Forgets the unique values of node {@code id} (as they are in {@code spec}). */
  void remove(String id, NodeSpec spec) {
    for (SpecIndex.Field f : UNIQUE) {
      String value = f.of(spec);
      if (value != null && id.equals(holder(f, value))) {
        changed.get(f).put(value, Optional.empty());
      }
    }
  }

  /** The first unique value of {@code spec} held by a node other than {@code id}. */
  Optional<Clash> clash(String id, NodeSpec spec) {
    return check("serial", SpecIndex.Field.SERIAL, spec, id)
        .or(() -> check("macAddress", SpecIndex.Field.MAC_ADDRESS, spec, id))
        .or(() -> check("mgmtAddress", SpecIndex.Field.MGMT_ADDRESS, spec, id));
  }

  private Optional<Clash> check(String name, SpecIndex.Field field, NodeSpec spec, String id) {
    String value = field.of(spec);
    if (value == null) {
      return Optional.empty();
    }
    String holder = holder(field, value);
    return holder == null || holder.equals(id)
        ? Optional.empty()
        : Optional.of(new Clash(name, value, holder));
  }

  /** The node holding {@code value} now, or null. */
  private String holder(SpecIndex.Field field, String value) {
    Optional<String> mine = changed.get(field).get(value);
    if (mine != null) {
      return mine.orElse(null);
    }
    return base.holder(field, value).orElse(null);
  }
}
