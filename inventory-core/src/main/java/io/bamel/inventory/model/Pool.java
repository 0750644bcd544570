package io.bamel.inventory.model;

import java.util.NavigableSet;
import java.util.Set;
import org.pcollections.TreePSet;

/**
 * A pool as read from the inventory: its name, config and status with their mod revisions (0 when
 * absent), and the ids of its members (from the {@code members/} index), in id order.
 *
 * <p>The member set is a persistent sorted set ({@link TreePSet}): the inventory cache derives each
 * revision's pool from the previous one in O(log n), sharing structure instead of copying the whole
 * set, so a pool of 100,000 members costs the same per change as a pool of ten.
 */
public record Pool(
    String name,
    PoolConfig config,
    long configRevision,
    PoolStatus status,
    long statusRevision,
    Set<String> members) {

  /** Takes a persistent member set as it is; copies any other into one. */
  public Pool {
    members = members == null ? TreePSet.empty() : persistent(members);
  }

  /** The member ids in id order, for paging ({@code tailSet(after, false)}). */
  public NavigableSet<String> sortedMembers() {
    return (TreePSet<String>) members;
  }

  private static TreePSet<String> persistent(Set<String> members) {
    return members instanceof TreePSet<String> p ? p : TreePSet.from(members);
  }
}
