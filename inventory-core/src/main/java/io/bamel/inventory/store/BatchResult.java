package io.bamel.inventory.store;

/**
 * What a batch upsert did with one item.
 *
 * @param id the node id
 * @param outcome created, updated, unchanged (nothing written), or why not
 * @param revision the spec's mod revision after the batch (0 when not stored)
 * @param message why, for {@code CONFLICT}, {@code DUPLICATE}, {@code INVALID} and {@code FAILED}
 */
public record BatchResult(String id, Outcome outcome, long revision, String message) {

  /** The outcomes of one item. */
  public enum Outcome {
    /** The node did not exist and was created. */
    CREATED,
    /** The node existed and its spec changed. */
    UPDATED,
    /** The node existed with exactly this spec; nothing was written. */
    UNCHANGED,
    /** The node's revision was not the expected one. */
    CONFLICT,
    /**
     * A unique value (serial, MAC, management address) is held by another node, stored or earlier
     * in the batch; the message names the field and the node. Nothing was written.
     */
    DUPLICATE,
    /** The id or spec is invalid; nothing was written. */
    INVALID,
    /** etcd failed for this item. */
    FAILED
  }
}
