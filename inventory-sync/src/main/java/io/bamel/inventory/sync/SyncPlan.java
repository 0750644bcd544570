package io.bamel.inventory.sync;

import io.bamel.inventory.model.FieldError;
import io.bamel.inventory.model.NodeSpec;
import java.util.List;

/**
 * What a sync will do, decided from the request and the cache before anything is written (a dry run
 * returns exactly this). Every action names the item it came from ({@code -1} for prunes).
 */
public record SyncPlan(List<Action> actions) {

  /** Copies the list. */
  public SyncPlan {
    actions = List.copyOf(actions);
  }

  /** What happens to one node or item. */
  public enum Kind {
    /** A new node. */
    CREATE,
    /** An existing node whose spec changes. */
    UPDATE,
    /** An existing node whose spec is already the desired one: nothing is written. */
    UNCHANGED,
    /** A node in the prune scope that the set no longer has. */
    DELETE,
    /** An item (or a prune) that is refused, with the reason. */
    REJECT
  }

  /**
   * One action.
   *
   * @param kind what happens
   * @param item the request item's index, -1 for a prune
   * @param id the node id (null when an item names none)
   * @param revision the spec revision the write is guarded by (0 for a create)
   * @param before the current spec (null for a create or reject)
   * @param spec the desired spec (null for a delete or reject)
   * @param reason why, for a reject
   * @param errors the invalid fields, for a reject
   * @param conflict for a reject that is an identity conflict ({@link IdentityRule}), the node the
   *     item collided with; else null
   */
  public record Action(
      Kind kind,
      int item,
      String id,
      long revision,
      NodeSpec before,
      NodeSpec spec,
      String reason,
      List<FieldError> errors,
      String conflict) {

    /** Copies the errors. */
    public Action {
      errors = errors == null ? List.of() : List.copyOf(errors);
    }

    /** An action that is no conflict. */
    public Action(
        Kind kind,
        int item,
        String id,
        long revision,
        NodeSpec before,
        NodeSpec spec,
        String reason,
        List<FieldError> errors) {
      this(kind, item, id, revision, before, spec, reason, errors, null);
    }

    public static Action reject(int item, String id, String reason, List<FieldError> errors) {
      return new Action(Kind.REJECT, item, id, 0, null, null, reason, errors);
    }

    /**
     * An identity conflict: the item of record {@code inventoryId} (null: none), which would be
     * node {@code id}, collided with node {@code node}; its reason starts with {@link
     * SyncPlan#CONFLICT} and names the record, not the item's position, so that it reads the same
     * whatever the order of the set.
     */
    public static Action conflict(
        int item, String id, String node, String inventoryId, String why) {
      String record =
          inventoryId == null
              ? "a record without inventoryId"
              : "record " + io.bamel.inventory.model.Texts.quote(inventoryId);
      return new Action(
          Kind.REJECT, item, id, 0, null, null, CONFLICT + record + ": " + why, null, node);
    }

    /** Whether this is an identity conflict. */
    public boolean isConflict() {
      return conflict != null;
    }
  }

  /**
   * How the reason of a rejected item that is an identity conflict begins, in the plan and the sync
   * report: the record would take a node, or a serial, MAC or management address, that belongs to
   * another record. The item is not written; the node it collided with gets an event.
   */
  public static final String CONFLICT = "identity conflict: ";

  /** The identity conflicts, in order. */
  public List<Action> conflicts() {
    return actions.stream().filter(Action::isConflict).toList();
  }

  /** The actions of one kind, in order. */
  public List<Action> of(Kind kind) {
    return actions.stream().filter(a -> a.kind() == kind).toList();
  }
}
