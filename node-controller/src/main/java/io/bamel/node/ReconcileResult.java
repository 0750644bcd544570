package io.bamel.node;

import java.util.Locale;

/** What one reconciliation of a node came to: the {@code result} label of its metric. */
enum ReconcileResult {
  /** The node is where it should be, or a power action was sent. */
  OK,
  /** A step is under way, or a Kubernetes action failed: looked at again soon. */
  REQUEUE,
  /** The BMC did not answer, or a power action failed. */
  ERROR,
  /** The node was deleted. */
  GONE,
  /** This controller may not act on the node (not the leader, or not its owner). */
  SKIPPED,
  /** The controller is closing: no power action begins. */
  STOPPED,
  /** A status write was refused by the fence: leadership or ownership was lost. */
  FENCED,
  /** The status changed since it was read: looked at again at once. */
  CONFLICT;

  /** The {@code result} label of {@code bamel_reconcile_total}. */
  String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
