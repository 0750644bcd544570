package io.bamel.pool;

import io.bamel.pool.history.DemandHistory;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.immutables.value.Value;

/**
 * Everything the scaling policy decides from, gathered by the pool controller: the pool's members,
 * the utilization of its ready nodes, its pending pods, the Prometheus triggers' votes, what it
 * remembers from earlier decisions (when utilization first fell below the scale-down threshold,
 * when it last scaled up), the pool's recent demand (its trend) and the pool's demand history (what
 * its demand was at each hour of the week, {@link DemandHistory#expectedPeak}).
 *
 * @param members every member of the pool
 * @param utilization requests over allocatable on ready nodes, or unknown
 * @param pending unschedulable pods this pool serves
 * @param upVotes names of triggers voting up now
 * @param downVotes names of triggers voting down now
 * @param downTriggers names of every down trigger configured (all must agree for a scale-down)
 * @param lowSince when utilization first fell below the scale-down threshold, or null
 * @param lastScaleUp the time of the last scale-up, or null
 * @param demand the pool's recent demand, this cycle's included ({@link DemandTrend#EMPTY} when the
 *     trend is off)
 * @param history the pool's demand history, this cycle's observation included ({@link
 *     DemandHistory#empty()} when none is kept, as in a snapshot built without one)
 */
@Value.Builder
public record PoolSnapshot(
    List<Member> members,
    Utilization utilization,
    List<PendingPod> pending,
    Set<String> upVotes,
    Set<String> downVotes,
    Set<String> downTriggers,
    Instant lowSince,
    Instant lastScaleUp,
    DemandTrend demand,
    DemandHistory history) {

  /** Copies the collections; a null trend or history is an empty one. */
  public PoolSnapshot {
    members = List.copyOf(members);
    pending = List.copyOf(pending);
    upVotes = Set.copyOf(upVotes);
    downVotes = Set.copyOf(downVotes);
    downTriggers = Set.copyOf(downTriggers);
    demand = demand == null ? DemandTrend.EMPTY : demand;
    history = history == null ? DemandHistory.empty() : history;
  }

  /** A snapshot without demand samples or history. */
  public PoolSnapshot(
      List<Member> members,
      Utilization utilization,
      List<PendingPod> pending,
      Set<String> upVotes,
      Set<String> downVotes,
      Set<String> downTriggers,
      Instant lowSince,
      Instant lastScaleUp) {
    this(
        members,
        utilization,
        pending,
        upVotes,
        downVotes,
        downTriggers,
        lowSince,
        lastScaleUp,
        DemandTrend.EMPTY,
        DemandHistory.empty());
  }

  /** This snapshot with {@code pods} as its pending pods. */
  public PoolSnapshot withPending(List<PendingPod> pods) {
    return with(b -> b.pending(pods));
  }

  /** This snapshot with {@code history} as the pool's demand history. */
  public PoolSnapshot withHistory(DemandHistory history) {
    return with(b -> b.history(history));
  }

  /** This snapshot with {@code trend} as its recent demand. */
  public PoolSnapshot withDemand(DemandTrend trend) {
    return with(b -> b.demand(trend));
  }

  /**
   * A copy with {@code change} applied to its components, through the generated {@link
   * PoolSnapshotBuilder} (docs/architecture.md#generated-builders): a new component needs no change
   * here.
   */
  private PoolSnapshot with(Consumer<PoolSnapshotBuilder> change) {
    PoolSnapshotBuilder b = new PoolSnapshotBuilder().from(this);
    change.accept(b);
    return b.build();
  }

  /**
   * What the pool is asked for now: the requests of the pods on its members plus those of its
   * pending pods. The one measure of demand that both the trend and the history observe.
   */
  public Resources demandNow() {
    Resources.Sum sum = new Resources.Sum();
    for (Member m : members) {
      sum.add(m.requested());
    }
    for (PendingPod p : pending) {
      sum.add(p.requests());
    }
    return sum.build();
  }
}
