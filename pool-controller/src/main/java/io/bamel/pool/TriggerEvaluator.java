package io.bamel.pool;

import io.bamel.inventory.model.ScalingTrigger;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A source of scaling votes: evaluates the triggers of one {@linkplain #kind() kind} (the {@code
 * kind} field of {@link ScalingTrigger}; absent means {@value ScalingTrigger#PROMETHEUS}). The pool
 * controller holds one evaluator per kind ({@link TriggerEvaluators}) and hands each, once per
 * cycle, every pool's triggers of its kind; {@link PrometheusTriggers} is the Prometheus one, and a
 * workload simulation can register its own.
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>{@link #evaluate} is called from the controller's one cycle thread, once per cycle, with
 *       every configured pool that has triggers of this kind, each trigger already named (an
 *       unnamed one as {@code trigger-<index in the pool's list>}). It returns {@link Votes} for
 *       each pool it was given, built from one {@link TriggerVote} per trigger ({@link Votes#of}).
 *       A trigger the evaluator cannot read this cycle does not vote, and its pool's votes are
 *       unavailable with the reason (a down trigger that cannot be evaluated blocks scale-down).
 *   <li>It returns within the cycle's time: an evaluator that calls out bounds its own wait.
 *   <li>Any "holds for its {@code duration}" memory is the evaluator's ({@link TriggerWindow} is
 *       the rule); {@link #reset()} forgets it (a new leadership term starts afresh).
 * </ul>
 */
public interface TriggerEvaluator extends AutoCloseable {

  /** The trigger kind this evaluator answers for, such as {@value ScalingTrigger#PROMETHEUS}. */
  String kind();

  /**
   * The votes of each pool of {@code byPool} at {@code now}.
   *
   * @param byPool each pool's triggers of this kind, named
   */
  Map<String, Votes> evaluate(Map<String, List<ScalingTrigger>> byPool, Instant now);

  /** Forgets what earlier cycles held (windows); nothing by default. */
  default void reset() {}

  /** Releases threads or connections; nothing by default. */
  @Override
  default void close() {}
}
