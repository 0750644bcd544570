package io.bamel.inventory.store;

import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeSpec;

/**
 * One node of a batch upsert: the spec to store under {@code id}, the spec revision the caller
 * based it on ({@link #ANY} to take whatever is there, 0 to require that the node does not exist
 * yet), and the event recording the change (null for none).
 */
public record BatchItem(String id, NodeSpec spec, long expectedRevision, NodeEvent event) {

  /** Upsert over whatever revision is stored. */
  public static final long ANY = EtcdInventory.ANY_REVISION;

  /** An upsert that takes whatever is stored. */
  public static BatchItem upsert(String id, NodeSpec spec, NodeEvent event) {
    return new BatchItem(id, spec, ANY, event);
  }
}
