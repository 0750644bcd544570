package io.bamel.inventory.testing;

import dev.failsafe.RetryPolicy;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.runtime.Retries;
import io.bamel.inventory.store.ConflictException;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.NotFoundException;
import io.bamel.inventory.store.Versioned;
import io.bamel.inventory.store.WriteFence;
import java.util.function.UnaryOperator;

/**
 * Read-modify-write edits of a stored node for tests: read, apply, compare-and-swap, and on a lost
 * race read again (the store itself offers only the single compare-and-swap; the API's retry loop
 * is its production counterpart). Gives up after {@link #MAX_ATTEMPTS} lost races.
 */
public final class StoreEdits {

  /** Lost races before an edit gives up. */
  public static final int MAX_ATTEMPTS = 1_000;

  private static final RetryPolicy<Object> RACES = Retries.conflict(MAX_ATTEMPTS).build();

  private StoreEdits() {}

  /** Applies {@code change} to the node's spec; no write when the result is the stored spec. */
  public static Versioned<NodeSpec> updateSpec(
      EtcdInventory store, String id, UnaryOperator<NodeSpec> change, NodeEvent event) {
    for (int attempt = 0; ; attempt++) {
      Node node = read(store, id);
      NodeSpec next = change.apply(node.spec());
      try {
        return new Versioned<>(next, store.replaceSpec(id, node.specRevision(), next, event));
      } catch (ConflictException e) {
        lost(attempt, e);
      }
    }
  }

  /**
   * Applies {@code change} to the node's status (null when it has none), fenced by {@code fence}
   * (null: unfenced); no write when the result is the stored status and there is no event.
   */
  public static Versioned<NodeStatus> updateStatus(
      EtcdInventory store,
      String id,
      UnaryOperator<NodeStatus> change,
      NodeEvent event,
      WriteFence fence) {
    for (int attempt = 0; ; attempt++) {
      Node node = read(store, id);
      NodeStatus next = change.apply(node.status());
      try {
        return new Versioned<>(
            next, store.putStatus(id, node.statusRevision(), next, event, fence));
      } catch (ConflictException e) {
        lost(attempt, e);
      }
    }
  }

  private static Node read(EtcdInventory store, String id) {
    return store.getNode(id).orElseThrow(() -> new NotFoundException("node " + id));
  }

  private static void lost(int attempt, ConflictException e) {
    if (attempt >= MAX_ATTEMPTS) {
      throw e;
    }
    try {
      Retries.pause(RACES, attempt + 1);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw e;
    }
  }
}
