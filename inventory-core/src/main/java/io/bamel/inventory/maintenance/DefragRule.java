package io.bamel.inventory.maintenance;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Which etcd member to defragment now, if any. Compaction frees pages inside etcd's database file
 * but neither returns them to the file system (the quota counts the file) nor merges the pages it
 * thinned (bbolt merges a page only below a quarter full); only a defragmentation, which rewrites
 * the member's database, does both, and the member answers nothing while it runs (about a second
 * per 100 MB). So, in the manner of OpenShift's etcd operator (which defragments a member of at
 * least 100 MB whose file is at least 45 % free, one at a time) and the etcd-defrag tool's rules,
 * defragment only when it pays, one member at a time:
 *
 * <ul>
 *   <li><b>free space</b>: the file is at least {@code minDbSizeBytes} and at least {@code
 *       minFreeRatio} of it is not in use ({@code dbSize - dbSizeInUse}); or
 *   <li><b>growth</b> (when {@code growthRatio} is above zero): the data in use reached {@code
 *       growthRatio} times what it was just after this member's last defragmentation, or when first
 *       seen ({@link History#seen}): the thinned pages compaction leaves, which {@code dbSize -
 *       dbSizeInUse} does not show;
 * </ul>
 *
 * and at most one member every {@code minInterval}. Among the members due, the one with the most
 * free bytes goes first. A member whose file is above {@code maxDbSizeBytes} is never chosen, due
 * or not: its pause (a second per 100 MB, more than the leadership lease above about 1.5 GB) is the
 * operator's to schedule, and {@link #dueButTooLarge} names it so the owner can say so. Pure and
 * not thread-safe: one owner (the {@code etcd-maintenance} leader) asks {@link #next} and reports
 * each defragmentation with {@link #defragmented}.
 *
 * @param minDbSizeBytes the smallest database file worth a defragmentation, in bytes
 * @param maxDbSizeBytes the largest database file defragmented without an operator, in bytes (0: no
 *     limit)
 * @param minFreeRatio the least share of the file that must be free (0 to 1)
 * @param growthRatio defragment when in use reaches this times its size after the last
 *     defragmentation (0: off; otherwise above 1)
 * @param minInterval the least time between two defragmentations (of any member)
 */
public record DefragRule(
    long minDbSizeBytes,
    long maxDbSizeBytes,
    double minFreeRatio,
    double growthRatio,
    Duration minInterval) {

  /**
   * A file of 100 MiB or more, 45 % free, or in use grown to 1.2 times its size after the last
   * defragmentation; files up to 512 MiB (a pause of about 5 s, a third of the leadership lease);
   * at most one member every 10 minutes.
   */
  public static final DefragRule DEFAULTS =
      new DefragRule(100L << 20, 512L << 20, 0.45, 1.2, Duration.ofMinutes(10));

  /** Checks the bounds. */
  public DefragRule {
    Objects.requireNonNull(minInterval, "minInterval");
    if (minDbSizeBytes < 0) {
      throw new IllegalArgumentException("minDbSizeBytes must not be negative");
    }
    if (maxDbSizeBytes < 0) {
      throw new IllegalArgumentException("maxDbSizeBytes must not be negative (0: no limit)");
    }
    if (!(minFreeRatio >= 0 && minFreeRatio <= 1)) {
      throw new IllegalArgumentException("minFreeRatio must be 0 to 1");
    }
    if (!(growthRatio == 0 || (growthRatio > 1 && Double.isFinite(growthRatio)))) {
      throw new IllegalArgumentException("growthRatio must be 0 (off) or above 1");
    }
    if (minInterval.isNegative()) {
      throw new IllegalArgumentException("minInterval must not be negative");
    }
  }

  /**
   * One member's sizes, as its status reports them.
   *
   * @param endpoint the member's client URL
   * @param dbSizeBytes its database file
   * @param dbSizeInUseBytes the part of the file in use
   */
  public record Member(String endpoint, long dbSizeBytes, long dbSizeInUseBytes) {

    /** The bytes of the file not in use. */
    public long freeBytes() {
      return Math.max(0, dbSizeBytes - dbSizeInUseBytes);
    }
  }

  /**
   * What is known of past defragmentations.
   *
   * @param last when the last one ran (null: none yet)
   * @param inUseAfter each member's in-use size just after its last defragmentation
   */
  public record History(Instant last, Map<String, Long> inUseAfter) {

    /** Nothing yet. */
    public static final History NONE = new History(null, Map.of());

    /** Copies the map. */
    public History {
      inUseAfter = Map.copyOf(inUseAfter);
    }

    /**
     * This history with each member not yet known taken at its size now, as the baseline of the
     * growth trigger until its first defragmentation.
     */
    public History seen(List<Member> members) {
      Map<String, Long> sizes = new java.util.HashMap<>(inUseAfter);
      for (Member m : members) {
        sizes.putIfAbsent(m.endpoint(), m.dbSizeInUseBytes());
      }
      return sizes.equals(inUseAfter) ? this : new History(last, sizes);
    }
  }

  /** The member to defragment at {@code now}, if any. */
  public Optional<Member> next(List<Member> members, History history, Instant now) {
    if (history.last() != null && history.last().plus(minInterval).isAfter(now)) {
      return Optional.empty();
    }
    Member best = null;
    for (Member m : members) {
      if (due(m, history) && !tooLarge(m) && (best == null || m.freeBytes() > best.freeBytes())) {
        best = m;
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * The members {@link #due} but above {@code maxDbSizeBytes}, which {@link #next} never names:
   * defragmenting them is left to the operator ({@code bamel etcd defrag} in a quiet hour).
   */
  public List<Member> dueButTooLarge(List<Member> members, History history) {
    return members.stream().filter(m -> tooLarge(m) && due(m, history)).toList();
  }

  private boolean tooLarge(Member m) {
    return maxDbSizeBytes > 0 && m.dbSizeBytes() > maxDbSizeBytes;
  }

  /** Whether {@code m} is worth defragmenting, whatever the interval. */
  public boolean due(Member m, History history) {
    long free = m.freeBytes();
    if (m.dbSizeBytes() > 0
        && m.dbSizeBytes() >= minDbSizeBytes
        && free >= minFreeRatio * m.dbSizeBytes()) {
      return true;
    }
    Long after = history.inUseAfter().get(m.endpoint());
    return growthRatio > 0 && after != null && m.dbSizeInUseBytes() >= growthRatio * after;
  }

  /** The history once {@code after} (the member measured after its defragmentation) is recorded. */
  public static History defragmented(History history, Member after, Instant now) {
    Map<String, Long> sizes = new java.util.HashMap<>(history.inUseAfter());
    sizes.put(after.endpoint(), after.dbSizeInUseBytes());
    return new History(now, sizes);
  }
}
