package io.bamel.pool;

import io.bamel.inventory.model.ScalingTrigger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pool controller's trigger evaluators, one per {@linkplain TriggerEvaluator#kind() kind}: each
 * cycle it splits every pool's triggers by {@link ScalingTrigger#evaluatorKind()}, names the
 * unnamed ones ({@code trigger-<index>}, their index in the pool's whole list), asks each evaluator
 * for its share and joins the votes per pool ({@link Votes#and}). A trigger whose kind has no
 * evaluator does not vote, and its pool's votes are unavailable saying so. Every pool given gets
 * votes ({@link Votes#NONE} without triggers). Not thread-safe: the controller's cycle thread uses
 * it; {@link #close()} closes every evaluator.
 */
public final class TriggerEvaluators implements AutoCloseable {

  private final Map<String, TriggerEvaluator> byKind = new LinkedHashMap<>();

  /** A registry of {@code evaluators}; two of one kind are refused. */
  public TriggerEvaluators(List<TriggerEvaluator> evaluators) {
    for (TriggerEvaluator e : evaluators) {
      if (byKind.putIfAbsent(e.kind(), e) != null) {
        throw new IllegalArgumentException("two trigger evaluators of kind " + e.kind());
      }
    }
  }

  /** Evaluates every pool's triggers at {@code now}: the votes of each pool of {@code byPool}. */
  public Map<String, Votes> evaluate(Map<String, List<ScalingTrigger>> byPool, Instant now) {
    Map<String, Map<String, List<ScalingTrigger>>> shares = new HashMap<>();
    Map<String, Votes> out = new HashMap<>();
    for (Map.Entry<String, List<ScalingTrigger>> pool : byPool.entrySet()) {
      List<ScalingTrigger> triggers = pool.getValue();
      List<TriggerVote> orphans = new ArrayList<>();
      String problem = null;
      for (int i = 0; i < triggers.size(); i++) {
        ScalingTrigger t = named(triggers.get(i), i);
        String kind = t.evaluatorKind();
        if (byKind.containsKey(kind)) {
          shares
              .computeIfAbsent(kind, k -> new HashMap<>())
              .computeIfAbsent(pool.getKey(), p -> new ArrayList<>())
              .add(t);
        } else {
          orphans.add(new TriggerVote(t.name(), t.scaleDirection(), false));
          if (problem == null) {
            problem = "trigger " + t.name() + ": no evaluator for trigger kind " + kind;
          }
        }
      }
      out.put(pool.getKey(), orphans.isEmpty() ? Votes.NONE : Votes.of(orphans, problem));
    }
    shares.forEach(
        (kind, share) ->
            byKind
                .get(kind)
                .evaluate(share, now)
                .forEach((pool, v) -> out.merge(pool, v, Votes::and)));
    return out;
  }

  /** Forgets every evaluator's windows. */
  public void reset() {
    byKind.values().forEach(TriggerEvaluator::reset);
  }

  @Override
  public void close() {
    byKind.values().forEach(TriggerEvaluator::close);
  }

  /** {@code t}, named {@code trigger-<index>} when it has no name. */
  static ScalingTrigger named(ScalingTrigger t, int index) {
    if (t.name() != null && !t.name().isBlank()) {
      return t;
    }
    return new ScalingTrigger(
        "trigger-" + index,
        t.metricQuery(),
        t.threshold(),
        t.duration(),
        t.scaleDirection(),
        t.kind(),
        t.extensions());
  }
}
