package io.bamel.pool;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The estimated energy not spent because nodes were off, integrated between decision cycles. Pure
 * (no clock, no I/O): the caller passes each cycle's observations and time.
 *
 * <p>A node's draw while it would idle is its <em>measured</em> idle draw — the lowest BMC reading
 * seen while the node was on and ready — else its <em>configured</em> {@code idlePowerWatts}; a
 * node with neither counts nothing. Between two observations of a node, the interval counts in full
 * when the node was off at both, half when off at one (trapezoid rule). An interval longer than
 * {@code maxGap} (a stalled or absent leader) counts nothing: the estimate errs low.
 *
 * <p>Not thread-safe; one decision loop owns it.
 */
public final class EnergyLedger {

  /**
   * One node at one cycle.
   *
   * @param node the node id
   * @param pool its pool
   * @param off whether it is off (observed state {@code off})
   * @param ready whether it is on and ready (its reading may serve as the measured idle draw)
   * @param readingWatts the BMC's last power reading, or null
   * @param idleWatts the configured idle draw ({@code idlePowerWatts}), or null
   */
  public record Observation(
      String node,
      String pool,
      boolean off,
      boolean ready,
      Double readingWatts,
      Double idleWatts) {}

  private record Seen(Instant at, boolean off, String pool) {}

  private final Duration maxGap;
  private Map<String, Seen> last = new HashMap<>();
  private Map<String, Double> measuredIdle = new HashMap<>();

  /** A ledger that ignores intervals longer than {@code maxGap}. */
  public EnergyLedger(Duration maxGap) {
    this.maxGap = maxGap;
  }

  /**
   * Records one cycle's observations at {@code now}.
   *
   * @return joules saved since the previous cycle, per pool (pools with none left out)
   */
  public Map<String, Double> observe(Instant now, List<Observation> observations) {
    Map<String, Double> saved = new HashMap<>();
    Map<String, Seen> seen = new HashMap<>(observations.size() * 2);
    Map<String, Double> idle = new HashMap<>();
    for (Observation o : observations) {
      Double measured = measuredIdle.get(o.node());
      if (o.ready() && o.readingWatts() != null && o.readingWatts() > 0) {
        measured = measured == null ? o.readingWatts() : Math.min(measured, o.readingWatts());
      }
      if (measured != null) {
        idle.put(o.node(), measured);
      }
      seen.put(o.node(), new Seen(now, o.off(), o.pool()));
      Seen before = last.get(o.node());
      if (before == null || !now.isAfter(before.at())) {
        continue;
      }
      Duration dt = Duration.between(before.at(), now);
      if (dt.compareTo(maxGap) > 0) {
        continue;
      }
      double share = (before.off() ? 0.5 : 0) + (o.off() ? 0.5 : 0);
      Double watts = measured != null ? measured : configured(o.idleWatts());
      if (share > 0 && watts != null) {
        double joules = share * watts * dt.toNanos() / 1e9;
        saved.merge(o.pool(), joules, Double::sum);
      }
    }
    // Nodes not observed this cycle are forgotten.
    last = seen;
    measuredIdle = idle;
    return saved;
  }

  /** The idle draw used for {@code node}: measured, else {@code configured}, else null. */
  public Double idleDraw(String node, Double configured) {
    Double measured = measuredIdle.get(node);
    return measured != null ? measured : configured(configured);
  }

  private static Double configured(Double watts) {
    return watts != null && watts > 0 ? watts : null;
  }

  /** Forgets every node (a new leader starts afresh). */
  public void reset() {
    last.clear();
    measuredIdle.clear();
  }
}
