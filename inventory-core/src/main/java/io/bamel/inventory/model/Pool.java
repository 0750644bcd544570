package io.bamel.inventory.model;

import java.util.Set;

/**
 * A pool as read from the inventory: its name, config and status with their mod revisions (0 when
 * absent), and the ids of its members (from the {@code members/} index).
 */
public record Pool(
    String name,
    PoolConfig config,
    long configRevision,
    PoolStatus status,
    long statusRevision,
    Set<String> members) {

  /** Copies the member set. */
  public Pool {
    members = members == null ? Set.of() : Set.copyOf(members);
  }
}
