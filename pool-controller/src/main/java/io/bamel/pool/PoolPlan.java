package io.bamel.pool;

import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PoolStatus;
import io.bamel.inventory.store.DesiredPowerChange;
import java.time.Instant;
import java.util.List;

/**
 * What one cycle decided for one pool, before anything is written: the pure result the pool
 * controller applies. {@link #write()} says what to write.
 *
 * @param pool the pool's name
 * @param config the pool's config with defaults filled in
 * @param members the pool's nodes as the cache held them
 * @param snapshot what the decision was made from
 * @param votes the triggers' votes
 * @param decision the decision, capped at {@link CyclePlan#MAX_CHANGES_PER_DECISION} nodes
 * @param memoryBefore the pool's window memory the decision started from
 * @param memoryAfter the memory to keep once the plan is applied
 * @param previous the pool status last written (or read)
 * @param status the pool status to hold after this cycle
 * @param news whether the decision is worth a log line and a count (not a repeated dry run)
 * @param changes the desired-power changes to write (empty for a dry run or no change)
 * @param watts the members' summed power readings, in watts (nodes without a reading count 0)
 */
public record PoolPlan(
    String pool,
    PoolConfig config,
    List<Node> members,
    PoolSnapshot snapshot,
    Votes votes,
    ScalingDecision decision,
    PoolMemory memoryBefore,
    PoolMemory memoryAfter,
    PoolStatus previous,
    PoolStatus status,
    boolean news,
    List<DesiredPowerChange> changes,
    double watts) {

  /** What applying the plan writes. */
  public enum Write {
    /** The desired-power changes and the status, in one fenced transaction. */
    DECISION,
    /** Only the status (a dry run, or no change of nodes but a new status). */
    STATUS,
    /** Nothing: the status is what was last written. */
    NOTHING
  }

  /** Copies the lists. */
  public PoolPlan {
    members = List.copyOf(members);
    changes = List.copyOf(changes);
  }

  /**
   * What to write when every change of the status is written ({@link
   * PoolStatusWrites#EVERY_CHANGE}).
   */
  public Write write() {
    return write(PoolStatusWrites.EVERY_CHANGE, null, Instant.EPOCH);
  }

  /**
   * What to write: a decision always (with the status); otherwise the status when {@code rule} says
   * it is due.
   *
   * @param rule when a status alone is worth a write
   * @param writtenAt when {@link #previous()} was written (null: unknown)
   * @param now the cycle's time
   */
  public Write write(PoolStatusWrites rule, Instant writtenAt, Instant now) {
    if (!changes.isEmpty()) {
      return Write.DECISION;
    }
    return rule.due(previous, writtenAt, status, now) ? Write.STATUS : Write.NOTHING;
  }

  /** Whether the pool is in dry-run mode (decisions recorded in its status, nodes untouched). */
  public boolean dryRun() {
    return Boolean.TRUE.equals(config.dryRun());
  }
}
