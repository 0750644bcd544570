package io.bamel.inventory.store;

/**
 * The revision a read or watch was pinned to has been compacted away: the caller must start over
 * from the current revision (the API answers 410 Gone).
 */
public final class CompactedException extends InventoryException {

  private final long compactRevision;

  /** Revision {@code requested} is older than etcd's compact revision. */
  public CompactedException(long requested, long compactRevision) {
    super(
        "revision "
            + requested
            + " has been compacted"
            + (compactRevision > 0 ? " (compacted up to " + compactRevision + ")" : ""));
    this.compactRevision = compactRevision;
  }

  /** The revision etcd has compacted up to, 0 when unknown. */
  public long compactRevision() {
    return compactRevision;
  }
}
