package io.bamel.node;

import io.bamel.inventory.store.WriteFence;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Which nodes a node controller may act on, and the fence its writes about them carry: every node
 * while it leads ({@link LeaderOwnership}, one acting controller), or its share of the hash ring
 * ({@link ShardOwnership}, every replica acting on its own nodes).
 */
interface Ownership {

  /** The fence of a write about node {@code id}; empty when this controller may not act on it. */
  Optional<WriteFence> fence(String id);

  /** Whether this controller may act on node {@code id} now. */
  boolean owns(String id);

  /** Whether this controller acts at all now (it leads, or it is live on the ring). */
  boolean active();

  /** What the controller acts as, for the {@code bamel_leader} gauge's component label. */
  String component();

  /** Tells {@code listener} of every change of the nodes owned, on a thread of the owner's. */
  void listen(Consumer<Handover> listener);

  /**
   * A change of ownership.
   *
   * @param gained whether a node is owned now and was not before: to be looked at
   * @param lost whether a node was owned and is not any more: to be dropped from the queue
   * @param why what changed, for the log
   */
  record Handover(Predicate<String> gained, Predicate<String> lost, String why) {}
}
