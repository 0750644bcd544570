package io.bamel.node;

import io.bamel.inventory.sharding.HashRing;
import io.bamel.inventory.sharding.ReplicaRegistry;
import io.bamel.inventory.store.WriteFence;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Sharded ownership: every live replica acts on the nodes the hash ring gives it ({@link
 * ReplicaRegistry#owns}), and fences its writes by its own replica key ({@link
 * ReplicaRegistry#fence()}), which lives as long as its lease: a replica cut off from etcd loses
 * its key within the TTL, its nodes pass to the others, and its writes fail from then on.
 *
 * <p>Two replicas may briefly both believe they own a node (each acts on the ring as it last saw
 * it, and rings are seen at slightly different moments). They still cannot both send a power
 * command for one decision: a power action is written ahead, as a compare-and-swap on the status
 * revision both read, before the BMC is called. Only one of the two writes commits; the other fails
 * with a conflict and calls nothing, and its next look finds the written-ahead {@code powering-on}
 * or {@code powering-off}, which is only observed until its timeout. A replica that lost its key
 * cannot write ahead at all (the fence), and a replica re-checks that it still owns the node
 * between its write and the BMC call.
 */
final class ShardOwnership implements Ownership {

  private final ReplicaRegistry registry;

  /** The ring last handed over; touched only on the registry's thread. */
  private HashRing last = HashRing.of(List.of());

  ShardOwnership(ReplicaRegistry registry) {
    this.registry = registry;
  }

  @Override
  public Optional<WriteFence> fence(String id) {
    return registry.owns(id) ? registry.fence() : Optional.empty();
  }

  @Override
  public boolean owns(String id) {
    return registry.owns(id);
  }

  @Override
  public boolean active() {
    return registry.fence().isPresent();
  }

  @Override
  public String component() {
    return NodeController.COMPONENT;
  }

  @Override
  public void listen(Consumer<Handover> listener) {
    String me = registry.instance();
    registry.addListener(
        ring -> {
          HashRing before = last;
          last = ring;
          listener.accept(
              new Handover(
                  id -> ring.owns(me, id) && !before.owns(me, id),
                  id -> before.owns(me, id) && !ring.owns(me, id),
                  "hash ring " + ring.members()));
        });
  }
}
