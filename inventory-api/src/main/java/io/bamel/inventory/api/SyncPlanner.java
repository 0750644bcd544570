package io.bamel.inventory.api;

import io.bamel.inventory.model.FieldError;
import io.bamel.inventory.model.Ids;
import io.bamel.inventory.model.InvalidInputException;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.Texts;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.store.SpecIndex;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Decides a DCIM sync, as a pure function of the items, the current nodes and the caller's {@link
 * Rules}. An item naming an invalid id is rejected whatever it matches. Each item is matched to an
 * existing node by {@code inventoryId}, then serial, then management address, then MAC address,
 * then id; an unmatched item creates a node under its id. The desired spec is validated (a
 * power-off command name the server does not define included), checked against the power-control
 * rule (an item that creates a node with power-control fields or changes them is rejected when the
 * caller lacks scope bmc; the node it matched is then left as it is, and not pruned), and checked
 * for unique fields against the inventory as the sync leaves it (items in order). When {@code
 * prune} is set, nodes in {@code scope} that no item matched are deleted if they are off and
 * refused if they are on.
 */
public final class SyncPlanner {

  /**
   * What the caller may do.
   *
   * @param caller who syncs; without scope bmc, items may not set or change power-control fields
   * @param powerOffCommands the power-off command names the server defines
   * @param ownsReservedLabels whether the caller is the owner of the reserved labels ({@link
   *     ReservedLabels}: the NetBox source's pull and webhooks); else an item that adds or changes
   *     one is rejected
   */
  public record Rules(Principal caller, Set<String> powerOffCommands, boolean ownsReservedLabels) {

    /** Copies the names. */
    public Rules {
      powerOffCommands = powerOffCommands == null ? Set.of() : Set.copyOf(powerOffCommands);
    }

    /** Rules of a caller that owns no reserved label (every API request). */
    public Rules(Principal caller, Set<String> powerOffCommands) {
      this(caller, powerOffCommands, false);
    }
  }

  /**
   * What a plan reads of the inventory: a node by id, the node holding an identifying spec value,
   * and (for a prune only) every node. Backed by the cache ({@link #of(InventoryCache)}: each
   * lookup O(1), nothing built per plan) or by a collection of nodes ({@link #of(Collection)}:
   * indexed once, O(nodes)).
   */
  public interface Current {

    /** The node with this id, or null. */
    Node node(String id);

    /** The node holding {@code value} in {@code field}, if any. */
    Optional<String> holder(SpecIndex.Field field, String value);

    /** Every node (read only by a prune). */
    Collection<Node> all();

    /** The cache's nodes and its {@link InventoryCache#specIndex()}, read live. */
    static Current of(InventoryCache cache) {
      SpecIndex index = cache.specIndex();
      return new Current() {
        @Override
        public Node node(String id) {
          return cache.node(id).orElse(null);
        }

        @Override
        public Optional<String> holder(SpecIndex.Field field, String value) {
          return index.holder(field, value);
        }

        @Override
        public Collection<Node> all() {
          return cache.nodes();
        }
      };
    }

    /**
     * {@code nodes}, indexed once here; a value several nodes hold names the first of them in
     * {@code nodes}' order.
     */
    static Current of(Collection<Node> nodes) {
      Map<String, Node> byId = new HashMap<>();
      Map<SpecIndex.Field, Map<String, String>> holders = new EnumMap<>(SpecIndex.Field.class);
      for (SpecIndex.Field f : SpecIndex.Field.values()) {
        holders.put(f, new HashMap<>());
      }
      for (Node node : nodes) {
        byId.put(node.id(), node);
        for (SpecIndex.Field f : SpecIndex.Field.values()) {
          String value = f.of(node.spec());
          if (value != null) {
            holders.get(f).putIfAbsent(value, node.id());
          }
        }
      }
      return new Current() {
        @Override
        public Node node(String id) {
          return byId.get(id);
        }

        @Override
        public Optional<String> holder(SpecIndex.Field field, String value) {
          return Optional.ofNullable(value == null ? null : holders.get(field).get(value));
        }

        @Override
        public Collection<Node> all() {
          return nodes;
        }
      };
    }
  }

  private static final Rules ADMIN_RULES = new Rules(new Principal("sync", Access.ADMIN), Set.of());

  private SyncPlanner() {}

  /**
   * The plan for {@code items} against {@code current} for a caller with every scope and no
   * power-off commands defined.
   */
  public static SyncPlan plan(
      List<SyncItem> items, Collection<Node> current, Predicate<Node> scope, boolean prune) {
    return plan(items, current, scope, prune, ADMIN_RULES);
  }

  /**
   * The plan for {@code items} against {@code current} under {@code rules}; indexes {@code current}
   * first (O(nodes)): a caller holding the cache passes {@link Current#of(InventoryCache)} instead.
   */
  public static SyncPlan plan(
      List<SyncItem> items,
      Collection<Node> current,
      Predicate<Node> scope,
      boolean prune,
      Rules rules) {
    return plan(items, Current.of(current), scope, prune, rules);
  }

  /**
   * The plan for {@code items} against {@code current} under {@code rules}: its cost is the items'
   * (O(1) lookups each), not the fleet's, but for a prune, which reads every node in scope.
   */
  public static SyncPlan plan(
      List<SyncItem> items, Current current, Predicate<Node> scope, boolean prune, Rules rules) {
    UniqueFields after = new UniqueFields(current);
    Map<String, Integer> claimedBy = new HashMap<>();
    List<SyncPlan.Action> actions = new ArrayList<>();
    for (SyncItem item : items) {
      if (!item.errors().isEmpty()) {
        actions.add(
            SyncPlan.Action.reject(item.index(), item.id(), "invalid record", item.errors()));
        continue;
      }
      if (item.id() != null && Ids.problem(item.id()) != null) {
        actions.add(
            SyncPlan.Action.reject(
                item.index(),
                item.id().length() <= NodeSpec.MAX_TEXT ? item.id() : null,
                "invalid id " + Texts.quote(item.id()) + ": " + Ids.problem(item.id()),
                null));
        continue;
      }
      Optional<String> matched = match(item, current);
      String id = matched.orElse(item.id());
      if (id == null) {
        actions.add(
            SyncPlan.Action.reject(
                item.index(), null, "the record names no id and matches no node", null));
        continue;
      }
      String idProblem = Ids.problem(id);
      if (idProblem != null) {
        actions.add(SyncPlan.Action.reject(item.index(), id, "invalid id: " + idProblem, null));
        continue;
      }
      Integer earlier = claimedBy.get(id);
      if (earlier != null) {
        actions.add(
            SyncPlan.Action.reject(
                item.index(),
                id,
                "matches node " + id + ", which item " + earlier + " already matched",
                null));
        continue;
      }
      Node existing = current.node(id);
      NodeSpec before = existing == null ? null : existing.spec();
      NodeSpec desired;
      try {
        desired = item.desired().apply(before);
        desired.validate();
        List<FieldError> command =
            PowerControlFields.unknownCommand(desired, rules.powerOffCommands());
        if (!command.isEmpty()) {
          throw new InvalidInputException(command);
        }
        List<String> reserved =
            rules.ownsReservedLabels() ? List.of() : ReservedLabels.changed(before, desired);
        if (!reserved.isEmpty()) {
          throw new InvalidInputException(ReservedLabels.errors(reserved));
        }
      } catch (InvalidInputException e) {
        actions.add(SyncPlan.Action.reject(item.index(), id, "invalid record", e.errors()));
        continue;
      } catch (ApiException e) {
        actions.add(
            SyncPlan.Action.reject(item.index(), id, e.problem().detail(), e.problem().errors()));
        continue;
      }
      List<String> control = PowerControlFields.changed(before, desired);
      if (!PowerControlFields.allowed(rules.caller(), control)) {
        actions.add(
            SyncPlan.Action.reject(
                item.index(),
                id,
                PowerControlFields.refusal(rules.caller(), id, before == null, control),
                PowerControlFields.fieldErrors(control)));
        if (before != null) {
          claimedBy.put(id, item.index());
        }
        continue;
      }
      Optional<UniqueFields.Clash> clash = after.clash(id, desired);
      if (clash.isPresent()) {
        UniqueFields.Clash c = clash.get();
        actions.add(
            SyncPlan.Action.reject(
                item.index(),
                id,
                c.field() + " " + c.value() + " is already used by node " + c.holder(),
                null));
        continue;
      }
      claimedBy.put(id, item.index());
      if (before != null) {
        after.remove(id, before);
      }
      after.add(id, desired);
      if (before == null) {
        actions.add(
            new SyncPlan.Action(
                SyncPlan.Kind.CREATE, item.index(), id, 0, null, desired, null, null));
      } else if (sameSpec(before, desired)) {
        actions.add(
            new SyncPlan.Action(
                SyncPlan.Kind.UNCHANGED,
                item.index(),
                id,
                existing.specRevision(),
                before,
                desired,
                null,
                null));
      } else {
        actions.add(
            new SyncPlan.Action(
                SyncPlan.Kind.UPDATE,
                item.index(),
                id,
                existing.specRevision(),
                before,
                desired,
                null,
                null));
      }
    }
    if (prune) {
      Set<String> kept = new HashSet<>(claimedBy.keySet());
      List<Node> candidates =
          current.all().stream()
              .filter(n -> !kept.contains(n.id()) && scope.test(n))
              .sorted((a, b) -> a.id().compareTo(b.id()))
              .toList();
      for (Node node : candidates) {
        if (SpecRules.isOn(node)) {
          actions.add(SyncPlan.Action.reject(-1, node.id(), "not pruned: the node is on", null));
        } else {
          actions.add(
              new SyncPlan.Action(
                  SyncPlan.Kind.DELETE,
                  -1,
                  node.id(),
                  node.specRevision(),
                  node.spec(),
                  null,
                  null,
                  null));
        }
      }
    }
    return new SyncPlan(actions);
  }

  /**
   * Whether {@code desired} stores as {@code before} does: equal records encode alike, so only
   * unequal ones (a number of another scale, say) are compared by their stored bytes.
   */
  private static boolean sameSpec(NodeSpec before, NodeSpec desired) {
    return before.equals(desired) || Arrays.equals(Codec.encode(before), Codec.encode(desired));
  }

  /**
   * The node an item names, as the inventory was before the plan: by inventory id, serial,
   * management address, MAC address, then id.
   */
  private static Optional<String> match(SyncItem item, Current current) {
    NodeSpec keys = item.keys();
    return current
        .holder(SpecIndex.Field.INVENTORY_ID, keys.inventoryId())
        .or(() -> current.holder(SpecIndex.Field.SERIAL, keys.serial()))
        .or(() -> current.holder(SpecIndex.Field.MGMT_ADDRESS, keys.mgmtAddress()))
        .or(() -> current.holder(SpecIndex.Field.MAC_ADDRESS, keys.macAddress()))
        .or(
            () ->
                Optional.ofNullable(
                    item.id() != null && current.node(item.id()) != null ? item.id() : null));
  }
}
