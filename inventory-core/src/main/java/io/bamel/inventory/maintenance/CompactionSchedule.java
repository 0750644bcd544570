package io.bamel.inventory.maintenance;

/**
 * Which revision to compact etcd to at each tick, the way kube-apiserver does it: at every tick the
 * current revision is remembered, and the history is compacted up to the revision remembered at the
 * previous tick. So a watcher or a paged read always has at least one interval of history behind
 * it, and etcd holds at most two intervals of superseded values. Pure and not thread-safe: one
 * owner calls {@link #tick(long)} on its schedule.
 */
public final class CompactionSchedule {

  private long remembered;
  private long compacted;

  /**
   * One tick.
   *
   * @param currentRevision etcd's revision now
   * @return the revision to compact to, or 0 when there is nothing new to compact (the first tick,
   *     or no write since the last compaction)
   */
  public long tick(long currentRevision) {
    long target = remembered;
    remembered = currentRevision;
    if (target <= compacted) {
      return 0;
    }
    return target;
  }

  /** Records that etcd is compacted up to {@code revision} (by this schedule or anyone else). */
  public void compactedTo(long revision) {
    compacted = Math.max(compacted, revision);
  }

  /** Forgets the remembered revision, as after losing leadership: the next tick only remembers. */
  public void reset() {
    remembered = 0;
  }
}
