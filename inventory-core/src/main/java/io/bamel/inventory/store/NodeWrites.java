package io.bamel.inventory.store;

import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeSpec;
import java.util.Objects;

/**
 * The writes that keep a node's keys consistent, added to a {@link TxnPlan}: a spec change moves
 * the pool-membership index in the same transaction, and an event is appended with the next
 * sequence number and the history trimmed to its bound. A new or changed unique value (serial, MAC,
 * management address) takes its index key, guarded by that key not existing, and the old value's
 * key is deleted; a delete removes the node's index keys.
 */
final class NodeWrites {

  private final int eventLimit;

  NodeWrites(int eventLimit) {
    this.eventLimit = eventLimit;
  }

  /**
   * Guards the spec at {@code oldRevision} (0: must not exist) and writes {@code newSpec} (null:
   * delete every key of the node), moving the membership index when the pool changes and the
   * unique-field index keys when a unique value changes.
   */
  void spec(
      TxnPlan plan,
      String id,
      NodeSpec oldSpec,
      long oldRevision,
      byte[] newSpecBytes,
      NodeSpec newSpec) {
    plan.expectModRevision(Keys.nodeSpec(id), oldRevision);
    String oldPool = oldSpec == null ? null : oldSpec.pool();
    String newPool = newSpec == null ? null : newSpec.pool();
    if (newSpec == null) {
      plan.deletePrefix(Keys.node(id));
      plan.deletePrefix(Keys.nodeEvents(id));
    } else {
      plan.put(Keys.nodeSpec(id), newSpecBytes);
    }
    if (!Objects.equals(oldPool, newPool)) {
      if (oldPool != null) {
        plan.delete(Keys.poolMember(oldPool, id));
      }
      if (newPool != null) {
        plan.put(Keys.poolMember(newPool, id), new byte[0]);
      }
    }
    for (UniqueField field : UniqueField.values()) {
      String oldValue = field.of(oldSpec);
      String newValue = field.of(newSpec);
      if (Objects.equals(oldValue, newValue)) {
        continue;
      }
      if (newValue != null) {
        plan.claim(field.key(newValue), field.field(), newValue, id);
      }
      if (oldValue != null) {
        plan.release(field.key(oldValue));
      }
    }
  }

  /** Appends {@code event} after {@code lastSeq} and trims the history to the bound. */
  void event(TxnPlan plan, String id, long lastSeq, NodeEvent event) {
    event(plan, id, lastSeq, event, null);
  }

  /**
   * Appends {@code event} after {@code lastSeq} and trims the history to the bound, encoding it
   * through {@code encoded} (null: encoded here).
   */
  void event(TxnPlan plan, String id, long lastSeq, NodeEvent event, LastEncoded encoded) {
    if (event == null) {
      return;
    }
    long seq = lastSeq + 1;
    String key = Keys.nodeEvent(id, seq);
    plan.expectAbsent(key);
    NodeEvent numbered = event.withSeq(seq);
    plan.put(key, encoded == null ? Codec.encode(numbered) : encoded.encode(numbered));
    long oldestKept = seq - eventLimit + 1;
    if (oldestKept > 1) {
      plan.deleteRange(Keys.nodeEvents(id), Keys.nodeEvent(id, oldestKept));
    }
  }
}
