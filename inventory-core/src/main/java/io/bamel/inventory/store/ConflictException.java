package io.bamel.inventory.store;

/**
 * A compare-and-swap lost: the value changed since the caller read it (its mod revision is no
 * longer the expected one), or a precondition such as "the pool has no members" no longer holds.
 * Read again and decide again; never overwrite blindly.
 */
public final class ConflictException extends InventoryException {

  private final long currentRevision;

  /** A conflict; {@code currentRevision} is the value's revision now, 0 when unknown/absent. */
  public ConflictException(String message, long currentRevision) {
    super(message);
    this.currentRevision = currentRevision;
  }

  /** The value's mod revision when the conflict was seen (0 when absent or unknown). */
  public long currentRevision() {
    return currentRevision;
  }
}
