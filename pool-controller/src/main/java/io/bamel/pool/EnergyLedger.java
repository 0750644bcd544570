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

  /** What the ledger remembers of one node; reused from cycle to cycle. */
  private static final class Track {
    long atNanos;
    boolean off;
    double measured = Double.NaN;
    long generation;
  }

  private final long maxGapNanos;
  private final Map<String, Track> tracks = new HashMap<>();
  private long generation;

  /** A ledger that ignores intervals longer than {@code maxGap}. */
  public EnergyLedger(Duration maxGap) {
    this.maxGapNanos = maxGap.toNanos();
  }

  /**
   * Records one cycle's observations at {@code now}.
   *
   * @return joules saved since the previous cycle, per pool (pools with none left out)
   */
  public Map<String, Double> observe(Instant now, List<Observation> observations) {
    generation++;
    long nowNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    Map<String, Double> saved = new HashMap<>();
    for (Observation o : observations) {
      Track t = tracks.get(o.node());
      boolean fresh = t == null;
      if (fresh) {
        t = new Track();
        tracks.put(o.node(), t);
      }
      if (o.ready() && o.readingWatts() != null && o.readingWatts() > 0) {
        t.measured =
            Double.isNaN(t.measured) ? o.readingWatts() : Math.min(t.measured, o.readingWatts());
      }
      long dt = nowNanos - t.atNanos;
      if (!fresh && dt > 0 && dt <= maxGapNanos) {
        double share = (t.off ? 0.5 : 0) + (o.off() ? 0.5 : 0);
        Double watts =
            Double.isNaN(t.measured) ? configured(o.idleWatts()) : Double.valueOf(t.measured);
        if (share > 0 && watts != null) {
          saved.merge(o.pool(), share * watts * dt / 1e9, Double::sum);
        }
      }
      t.atNanos = nowNanos;
      t.off = o.off();
      t.generation = generation;
    }
    if (tracks.size() > observations.size()) {
      // Nodes not observed this cycle are forgotten.
      tracks.values().removeIf(t -> t.generation != generation);
    }
    return saved;
  }

  /** The idle draw used for {@code node}: measured, else {@code configured}, else null. */
  public Double idleDraw(String node, Double configured) {
    Track t = tracks.get(node);
    return t != null && !Double.isNaN(t.measured)
        ? Double.valueOf(t.measured)
        : configured(configured);
  }

  private static Double configured(Double watts) {
    return watts != null && watts > 0 ? watts : null;
  }

  /** Forgets every node (a new leader starts afresh). */
  public void reset() {
    tracks.clear();
  }
}
