package io.bamel.pool;

import io.bamel.inventory.model.ScaleDirection;
import io.bamel.inventory.model.ScalingTrigger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@value ScalingTrigger#PROMETHEUS} kind of {@link TriggerEvaluator}: evaluates the pools'
 * Prometheus triggers ({@link ScalingTrigger}): each trigger's {@code metricQuery} is run as an
 * instant query; one whose condition ({@link TriggerWindow#holds}) has held for its {@code
 * duration} votes in its {@code scaleDirection}.
 *
 * <p>One cycle's queries, for every pool, run at once on at most {@code concurrency} threads (a
 * query that several triggers share runs once), and the cycle waits for them at most {@code budget}
 * in all: a slow Prometheus delays a cycle by the budget, never by the sum of its queries. A query
 * not answered within the budget is cancelled and counts as failed, like one that fails (Prometheus
 * unreachable, an error answer): its triggers give no vote and restart their windows, and the
 * pool's votes are {@linkplain Votes#available() unavailable} with the reason (the pool shows it as
 * a condition; a down trigger that cannot be evaluated blocks scale-down). Without a Prometheus
 * configured, triggers are unavailable and never vote.
 *
 * <p>Windows are kept in memory per pool and trigger (name and query); {@link #reset()} forgets
 * them (a new leader starts its windows afresh). Thread-safe; {@link #close()} stops the threads.
 */
public final class PrometheusTriggers implements TriggerEvaluator {

  /** The default time one cycle waits for all its queries. */
  public static final Duration DEFAULT_BUDGET = Duration.ofSeconds(5);

  /** The default number of queries in flight at once. */
  public static final int DEFAULT_CONCURRENCY = 4;

  private final InstantQuery prometheus;
  private final Duration budget;
  private final ThreadPoolExecutor workers;
  private final Map<String, Instant> holdingSince = new ConcurrentHashMap<>();

  /**
   * Triggers queried through {@code prometheus} (null: no Prometheus configured), at most {@code
   * concurrency} at once, each cycle waiting at most {@code budget} for all of them.
   */
  public PrometheusTriggers(InstantQuery prometheus, Duration budget, int concurrency) {
    if (budget.isNegative() || budget.isZero() || concurrency < 1) {
      throw new IllegalArgumentException("the budget and the concurrency must be positive");
    }
    this.prometheus = prometheus;
    this.budget = budget;
    AtomicInteger n = new AtomicInteger();
    this.workers =
        new ThreadPoolExecutor(
            concurrency,
            concurrency,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, "pool-triggers-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    workers.allowCoreThreadTimeOut(true);
  }

  /** Triggers with the default budget and concurrency. */
  public PrometheusTriggers(InstantQuery prometheus) {
    this(prometheus, DEFAULT_BUDGET, DEFAULT_CONCURRENCY);
  }

  @Override
  public String kind() {
    return ScalingTrigger.PROMETHEUS;
  }

  /** Evaluates the triggers of one pool at {@code now}. */
  public Votes evaluate(String pool, List<ScalingTrigger> triggers, Instant now) {
    return evaluate(Map.of(pool, triggers), now).get(pool);
  }

  /**
   * Evaluates every pool's triggers at {@code now}, their queries concurrently within the budget.
   *
   * @return the votes of each pool of {@code byPool}
   */
  @Override
  public Map<String, Votes> evaluate(Map<String, List<ScalingTrigger>> byPool, Instant now) {
    Map<String, Answer> answers = ask(byPool);
    Map<String, Votes> out = new HashMap<>();
    byPool.forEach((pool, triggers) -> out.put(pool, votes(pool, triggers, answers, now)));
    return out;
  }

  /** The answer to a query: its values, or why there are none. */
  private record Answer(List<Double> values, String error) {}

  private Map<String, Answer> ask(Map<String, List<ScalingTrigger>> byPool) {
    Map<String, Answer> answers = new HashMap<>();
    if (prometheus == null) {
      return answers;
    }
    long deadline = System.nanoTime() + budget.toNanos();
    Map<String, Future<List<Double>>> pending = new LinkedHashMap<>();
    for (List<ScalingTrigger> triggers : byPool.values()) {
      for (ScalingTrigger t : triggers) {
        String query = t.metricQuery();
        if (query != null && !pending.containsKey(query) && !answers.containsKey(query)) {
          try {
            pending.put(query, workers.submit(() -> prometheus.query(query)));
          } catch (RejectedExecutionException e) {
            answers.put(query, new Answer(null, "trigger evaluation stopped"));
          }
        }
      }
    }
    boolean interrupted = false;
    for (Map.Entry<String, Future<List<Double>>> e : pending.entrySet()) {
      Future<List<Double>> f = e.getValue();
      Answer answer;
      try {
        long left = interrupted ? 0 : Math.max(0, deadline - System.nanoTime());
        answer = new Answer(f.get(left, TimeUnit.NANOSECONDS), null);
      } catch (TimeoutException ex) {
        f.cancel(true);
        answer = new Answer(null, "no answer within the budget of " + budget.toMillis() + " ms");
      } catch (ExecutionException ex) {
        Throwable cause = ex.getCause() == null ? ex : ex.getCause();
        answer =
            new Answer(null, cause.getMessage() != null ? cause.getMessage() : cause.toString());
      } catch (InterruptedException ex) {
        interrupted = true;
        f.cancel(true);
        answer = new Answer(null, "interrupted");
      } catch (CancellationException ex) {
        answer = new Answer(null, "cancelled");
      }
      answers.put(e.getKey(), answer);
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return answers;
  }

  private Votes votes(
      String pool, List<ScalingTrigger> triggers, Map<String, Answer> answers, Instant now) {
    if (triggers.isEmpty()) {
      return Votes.NONE;
    }
    List<TriggerVote> cast = new ArrayList<>();
    String problem = null;
    for (int i = 0; i < triggers.size(); i++) {
      ScalingTrigger t = triggers.get(i);
      String name = name(t, i);
      boolean isUp = t.scaleDirection() != ScaleDirection.DOWN;
      String key = pool + "\u0000" + name + "\u0000" + t.metricQuery();
      boolean holds = false;
      if (prometheus == null) {
        problem = "no Prometheus URL configured";
      } else {
        Answer a = answers.get(t.metricQuery());
        if (a == null || a.error() != null) {
          if (problem == null) {
            problem = "trigger " + name + ": " + (a == null ? "no query" : a.error());
          }
        } else {
          double threshold = t.threshold() == null ? 0 : t.threshold();
          holds = TriggerWindow.holds(a.values(), threshold, isUp);
        }
      }
      Instant since = TriggerWindow.next(holdingSince.get(key), holds, now);
      if (since == null) {
        holdingSince.remove(key);
      } else {
        holdingSince.put(key, since);
      }
      cast.add(
          new TriggerVote(
              name,
              isUp ? ScaleDirection.UP : ScaleDirection.DOWN,
              TriggerWindow.votes(since, t.duration(), now)));
    }
    return Votes.of(cast, problem);
  }

  /** Forgets every window. */
  @Override
  public void reset() {
    holdingSince.clear();
  }

  /** Stops the query threads (a query under way is interrupted). */
  @Override
  public void close() {
    workers.shutdownNow();
  }

  /** The name a trigger votes under: its own, else {@code trigger-<index>}. */
  static String name(ScalingTrigger t, int index) {
    return t.name() != null && !t.name().isBlank() ? t.name() : "trigger-" + index;
  }
}
