package io.bamel.pool;

import io.bamel.inventory.model.ScaleDirection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The triggers' votes for one pool at one moment, as {@link ScalingPolicy} reads them.
 *
 * @param up names of triggers voting up
 * @param down names of triggers voting down
 * @param downTriggers names of every configured down trigger (a scale-down needs them all)
 * @param available whether every trigger could be evaluated
 * @param reason why not, when some could not
 */
public record Votes(
    Set<String> up, Set<String> down, Set<String> downTriggers, boolean available, String reason) {

  /** No triggers, no votes. */
  public static final Votes NONE = new Votes(Set.of(), Set.of(), Set.of(), true, null);

  /** Copies the sets. */
  public Votes {
    up = Set.copyOf(up);
    down = Set.copyOf(down);
    downTriggers = Set.copyOf(downTriggers);
  }

  /**
   * The votes of one pool's triggers, one {@link TriggerVote} each; {@code problem} (null: none)
   * says why some trigger could not be evaluated, which makes the votes unavailable.
   */
  public static Votes of(List<TriggerVote> votes, String problem) {
    Set<String> up = new HashSet<>();
    Set<String> down = new HashSet<>();
    Set<String> downTriggers = new HashSet<>();
    for (TriggerVote v : votes) {
      boolean isUp = v.direction() == ScaleDirection.UP;
      if (!isUp) {
        downTriggers.add(v.trigger());
      }
      if (v.cast()) {
        (isUp ? up : down).add(v.trigger());
      }
    }
    return new Votes(up, down, downTriggers, problem == null, problem);
  }

  /** These votes with {@code other}'s (two kinds of triggers of one pool): unions, first reason. */
  public Votes and(Votes other) {
    Set<String> u = new HashSet<>(up);
    u.addAll(other.up);
    Set<String> d = new HashSet<>(down);
    d.addAll(other.down);
    Set<String> dt = new HashSet<>(downTriggers);
    dt.addAll(other.downTriggers);
    return new Votes(
        u, d, dt, available && other.available, reason != null ? reason : other.reason);
  }
}
