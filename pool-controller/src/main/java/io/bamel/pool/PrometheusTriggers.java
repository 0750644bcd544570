package io.bamel.pool;

import io.bamel.inventory.model.ScalingTrigger;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Evaluates a pool's Prometheus triggers ({@link ScalingTrigger}): each trigger's {@code
 * metricQuery} is run as an instant query; one whose condition ({@link TriggerWindow#holds}) has
 * held for its {@code duration} votes in its {@code scaleDirection}. A query that fails (Prometheus
 * unreachable, an error answer) gives no vote, restarts that trigger's window, and makes the votes
 * {@linkplain Votes#available() unavailable} with the reason (the pool shows it as a condition).
 * Without a Prometheus configured, triggers are unavailable and never vote.
 *
 * <p>Windows are kept in memory per pool and trigger (name and query); {@link #reset()} forgets
 * them (a new leader starts its windows afresh). Thread-safe.
 */
public final class PrometheusTriggers {

  private final InstantQuery prometheus;
  private final Clock clock;
  private final Map<String, Instant> holdingSince = new ConcurrentHashMap<>();

  /** Triggers queried through {@code prometheus} (null: no Prometheus configured). */
  public PrometheusTriggers(InstantQuery prometheus, Clock clock) {
    this.prometheus = prometheus;
    this.clock = clock;
  }

  /** Evaluates {@code triggers} of {@code pool} now. */
  public Votes evaluate(String pool, List<ScalingTrigger> triggers) {
    if (triggers.isEmpty()) {
      return Votes.NONE;
    }
    Instant now = clock.instant();
    Set<String> up = new HashSet<>();
    Set<String> down = new HashSet<>();
    Set<String> downTriggers = new HashSet<>();
    String problem = null;
    for (int i = 0; i < triggers.size(); i++) {
      ScalingTrigger t = triggers.get(i);
      String name = name(t, i);
      boolean isUp = !"down".equals(t.scaleDirection());
      if (!isUp) {
        downTriggers.add(name);
      }
      String key = pool + "\u0000" + name + "\u0000" + t.metricQuery();
      boolean holds;
      if (prometheus == null) {
        holds = false;
        problem = "no Prometheus URL configured";
      } else {
        try {
          double threshold = t.threshold() == null ? 0 : t.threshold();
          holds = TriggerWindow.holds(prometheus.query(t.metricQuery()), threshold, isUp);
        } catch (IOException | RuntimeException e) {
          holds = false;
          if (problem == null) {
            problem = "trigger " + name + ": " + e.getMessage();
          }
        }
      }
      Instant since = TriggerWindow.next(holdingSince.get(key), holds, now);
      if (since == null) {
        holdingSince.remove(key);
      } else {
        holdingSince.put(key, since);
      }
      if (TriggerWindow.votes(since, t.duration(), now)) {
        (isUp ? up : down).add(name);
      }
    }
    return new Votes(up, down, downTriggers, problem == null, problem);
  }

  /** Forgets every window. */
  public void reset() {
    holdingSince.clear();
  }

  /** The name a trigger votes under: its own, else {@code trigger-<index>}. */
  static String name(ScalingTrigger t, int index) {
    return t.name() != null && !t.name().isBlank() ? t.name() : "trigger-" + index;
  }
}
