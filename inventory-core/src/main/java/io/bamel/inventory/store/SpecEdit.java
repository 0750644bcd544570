package io.bamel.inventory.store;

import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeSpec;

/**
 * What an edit makes of a stored node's spec, for {@link EtcdInventory#editSpec}: given the node as
 * read from etcd, the spec to write and the event that records it. An edit refuses by throwing (its
 * exception reaches the caller and nothing is written). It may be called again with a newer node
 * when the caller retries after a lost race, so it must not have effects of its own.
 */
@FunctionalInterface
public interface SpecEdit {

  /**
   * The new spec and its event (null: none), decided from {@code current}.
   *
   * @param current the node as stored, spec, status and readings at one revision
   */
  Result apply(Node current);

  /** The spec to write and the event to append with it (null: no event). */
  record Result(NodeSpec spec, NodeEvent event) {}
}
