package io.bamel.inventory.sync;

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
 * Decides a DCIM sync, as a pure function of the set of items, the current nodes and the caller's
 * {@link Rules}, never of the items' order. An item naming an invalid id is rejected whatever it
 * matches. Which node each item is, {@link IdentityRule} decides for the whole set: the node
 * holding its {@code inventoryId}; else a node without one that it adopts (serial, management
 * address, MAC address, then id); else a new node under its id (or its fallback id). The desired
 * spec is validated (a power-off command name the server does not define included), checked against
 * the power-control rule (an item that creates a node with power-control fields or changes them is
 * rejected unless the caller {@link Rules#mayChangePowerControl may change them}; the node it
 * matched is then left as it is, and not pruned), and checked for unique fields against the
 * inventory as the sync leaves it, the better-ranked item first. An item that would take another
 * record's node or unique value is an identity conflict ({@link SyncPlan#CONFLICT}). When {@code
 * prune} is set, nodes in {@code scope} that no item is are deleted if they are off and refused if
 * they are on.
 */
public final class SyncPlanner {

  /**
   * What the caller may do.
   *
   * @param caller who syncs (its name goes into refusals)
   * @param mayChangePowerControl whether the caller may set or change power-control fields ({@link
   *     PowerControlFields}: the API's scope {@code bmc}); without it, items that do are rejected
   * @param powerOffCommands the power-off command names the server defines
   * @param ownsReservedLabels whether the caller is the owner of the reserved labels ({@link
   *     ReservedLabels}: the NetBox source's pull and webhooks); else an item that adds or changes
   *     one is rejected
   */
  public record Rules(
      String caller,
      boolean mayChangePowerControl,
      Set<String> powerOffCommands,
      boolean ownsReservedLabels) {

    /** Copies the names. */
    public Rules {
      powerOffCommands = powerOffCommands == null ? Set.of() : Set.copyOf(powerOffCommands);
    }

    /** Rules of a caller that owns no reserved label (every API request). */
    public Rules(String caller, boolean mayChangePowerControl, Set<String> powerOffCommands) {
      this(caller, mayChangePowerControl, powerOffCommands, false);
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

  private static final Rules ADMIN_RULES = new Rules("sync", true, Set.of());

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
    Map<Integer, SyncPlan.Action> decided = new HashMap<>();
    List<IdentityRule.Claim> claims = new ArrayList<>();
    Map<Integer, SyncItem> byIndex = new HashMap<>();
    for (SyncItem item : items) {
      byIndex.put(item.index(), item);
      if (!item.errors().isEmpty()) {
        decided.put(
            item.index(),
            SyncPlan.Action.reject(item.index(), item.id(), "invalid record", item.errors()));
      } else if (item.id() != null && Ids.problem(item.id()) != null) {
        decided.put(
            item.index(),
            SyncPlan.Action.reject(
                item.index(),
                item.id().length() <= NodeSpec.MAX_TEXT ? item.id() : null,
                "invalid id " + Texts.quote(item.id()) + ": " + Ids.problem(item.id()),
                null));
      } else {
        NodeSpec keys = item.keys();
        claims.add(
            new IdentityRule.Claim(
                item.index(),
                keys.inventoryId(),
                item.id(),
                item.fallbackId(),
                keys.serial(),
                keys.mgmtAddress(),
                keys.macAddress()));
      }
    }
    Map<Integer, IdentityRule.Decision> identity = IdentityRule.decide(claims, nodesOf(current));
    Set<String> kept = new HashSet<>();
    // Candidates to write, better rank first: the unique fields go to the better-ranked record.
    List<SyncPlan.Action> candidates = new ArrayList<>();
    List<IdentityRule.Claim> ranked = new ArrayList<>(claims);
    ranked.sort(IdentityRule.RANK);
    for (IdentityRule.Claim claim : ranked) {
      SyncItem item = byIndex.get(claim.index());
      IdentityRule.Decision d = identity.get(claim.index());
      SyncPlan.Action a = decide(item, d, current, rules);
      if (d.outcome() == IdentityRule.Outcome.OWNED
          || d.outcome() == IdentityRule.Outcome.ADOPTED) {
        kept.add(d.node());
      }
      if (a.kind() == SyncPlan.Kind.REJECT) {
        decided.put(item.index(), a);
      } else {
        candidates.add(a);
      }
    }
    for (SyncPlan.Action a : uniqueConflicts(candidates, current)) {
      decided.put(a.item(), a);
    }
    for (SyncPlan.Action a : candidates) {
      decided.putIfAbsent(a.item(), a);
    }
    List<SyncPlan.Action> actions = new ArrayList<>();
    for (SyncItem item : items) {
      SyncPlan.Action a = decided.remove(item.index());
      if (a != null) {
        actions.add(a);
      }
    }
    if (prune) {
      List<Node> pruned =
          current.all().stream()
              .filter(n -> !kept.contains(n.id()) && scope.test(n))
              .sorted((a, b) -> a.id().compareTo(b.id()))
              .toList();
      for (Node node : pruned) {
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

  /** The action of one item whose identity is decided: a write, unchanged, or a reject. */
  private static SyncPlan.Action decide(
      SyncItem item, IdentityRule.Decision d, Current current, Rules rules) {
    switch (d.outcome()) {
      case NONE -> {
        return SyncPlan.Action.reject(
            item.index(), null, "the record names no id and matches no node", null);
      }
      case DUPLICATE -> {
        return SyncPlan.Action.reject(
            item.index(),
            item.id(),
            "item "
                + d.other()
                + " has the same inventoryId "
                + Texts.quote(item.keys().inventoryId()),
            null);
      }
      case CONFLICT -> {
        return SyncPlan.Action.conflict(
            item.index(),
            item.id(),
            d.node(),
            item.keys().inventoryId(),
            "node "
                + d.node()
                + " belongs to "
                + (d.other().startsWith("item ")
                    ? d.other()
                    : "inventoryId " + Texts.quote(d.other())));
      }
      default -> {}
    }
    String id = d.node();
    String idProblem = Ids.problem(id);
    if (idProblem != null) {
      return SyncPlan.Action.reject(item.index(), id, "invalid id: " + idProblem, null);
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
      return SyncPlan.Action.reject(item.index(), id, "invalid record", e.errors());
    }
    List<String> control = PowerControlFields.changed(before, desired);
    if (!PowerControlFields.allowed(rules.mayChangePowerControl(), control)) {
      return SyncPlan.Action.reject(
          item.index(),
          id,
          PowerControlFields.refusal(rules.caller(), id, before == null, control),
          PowerControlFields.fieldErrors(control));
    }
    if (before == null) {
      return new SyncPlan.Action(
          SyncPlan.Kind.CREATE, item.index(), id, 0, null, desired, null, null);
    }
    SyncPlan.Kind kind = sameSpec(before, desired) ? SyncPlan.Kind.UNCHANGED : SyncPlan.Kind.UPDATE;
    return new SyncPlan.Action(
        kind, item.index(), id, existing.specRevision(), before, desired, null, null);
  }

  /**
   * The candidates whose serial, MAC or management address another node keeps as the sync leaves
   * the inventory, as conflicts; the others are removed from nothing. Every candidate's node gives
   * up its values first, then the candidates take theirs, better rank first; a candidate refused
   * keeps its node's values, which may refuse another, so this repeats until no new refusal (each
   * round refuses at least one more, so it ends). The outcome depends on the set, not its order.
   */
  private static List<SyncPlan.Action> uniqueConflicts(
      List<SyncPlan.Action> candidates, Current current) {
    List<SyncPlan.Action> refused = new ArrayList<>();
    Set<Integer> out = new HashSet<>();
    Map<String, String> plannedOwners = new HashMap<>();
    for (SyncPlan.Action a : candidates) {
      if (a.spec().inventoryId() != null) {
        plannedOwners.put(a.id(), a.spec().inventoryId());
      }
    }
    while (true) {
      UniqueFields after = new UniqueFields(current);
      for (SyncPlan.Action a : candidates) {
        if (!out.contains(a.item()) && a.before() != null) {
          after.remove(a.id(), a.before());
        }
      }
      List<SyncPlan.Action> round = new ArrayList<>();
      for (SyncPlan.Action a : candidates) {
        if (out.contains(a.item())) {
          continue;
        }
        Optional<UniqueFields.Clash> clash = after.clash(a.id(), a.spec());
        if (clash.isPresent()) {
          UniqueFields.Clash c = clash.get();
          String owner = plannedOwners.getOrDefault(c.holder(), ownerOf(current, c.holder()));
          round.add(
              SyncPlan.Action.conflict(
                  a.item(),
                  a.id(),
                  c.holder(),
                  a.spec().inventoryId(),
                  c.field()
                      + " "
                      + c.value()
                      + " is already used by node "
                      + c.holder()
                      + (owner == null ? "" : " (inventoryId " + Texts.quote(owner) + ")")));
        } else {
          after.add(a.id(), a.spec());
        }
      }
      if (round.isEmpty()) {
        return refused;
      }
      for (SyncPlan.Action a : round) {
        out.add(a.item());
      }
      refused.addAll(round);
    }
  }

  private static String ownerOf(Current current, String id) {
    Node n = current.node(id);
    return n == null ? null : n.spec().inventoryId();
  }

  /** The identity rule's view of {@code current}. */
  private static IdentityRule.Nodes nodesOf(Current current) {
    return new IdentityRule.Nodes() {
      @Override
      public boolean exists(String id) {
        return current.node(id) != null;
      }

      @Override
      public String owner(String id) {
        return ownerOf(current, id);
      }

      @Override
      public Optional<String> holder(SpecIndex.Field field, String value) {
        return value == null ? Optional.empty() : current.holder(field, value);
      }
    };
  }

  /**
   * Whether {@code desired} stores as {@code before} does: equal records encode alike, so only
   * unequal ones (a number of another scale, say) are compared by their stored bytes.
   */
  private static boolean sameSpec(NodeSpec before, NodeSpec desired) {
    return before.equals(desired) || Arrays.equals(Codec.encode(before), Codec.encode(desired));
  }
}
