package io.bamel.pool;

import io.bamel.inventory.model.PoolStatus;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the pool controller remembers between decisions: since when utilization has been below the
 * scale-down threshold, and when the pool last scaled up. Kept in the pool status (fields {@value
 * #LOW_SINCE} and {@value #LAST_SCALE_UP}) so that a new leader continues the same windows. Pure.
 *
 * <p>It also keeps the pool's recent demand ({@link DemandTrend}, for {@code scaleUpTrendWindow}),
 * in this process only: it is a window of minutes that a new leader fills again, not worth a write
 * per cycle.
 *
 * @param lowSince start of the low-utilization window, or null
 * @param lastScaleUp time of the last scale-up, or null
 * @param demand the pool's recent demand (not kept in the status)
 */
public record PoolMemory(Instant lowSince, Instant lastScaleUp, DemandTrend demand) {

  /** A memory without demand samples. */
  public PoolMemory(Instant lowSince, Instant lastScaleUp) {
    this(lowSince, lastScaleUp, DemandTrend.EMPTY);
  }

  /** Normalises an absent trend to {@link DemandTrend#EMPTY}. */
  public PoolMemory {
    demand = demand == null ? DemandTrend.EMPTY : demand;
  }

  /** This memory with {@code trend} as its recent demand. */
  public PoolMemory withDemand(DemandTrend trend) {
    return new PoolMemory(lowSince, lastScaleUp, trend);
  }

  /** The status field holding {@link #lowSince()}. */
  public static final String LOW_SINCE = "lowUtilizationSince";

  /** The status field holding {@link #lastScaleUp()}. */
  public static final String LAST_SCALE_UP = "lastScaleUpTime";

  /** Nothing remembered. */
  public static final PoolMemory NONE = new PoolMemory(null, null);

  /** The memory kept in {@code status} (null: none); unreadable values count as absent. */
  public static PoolMemory from(PoolStatus status) {
    if (status == null) {
      return NONE;
    }
    return new PoolMemory(
        instant(status.extensions().get(LOW_SINCE)),
        instant(status.extensions().get(LAST_SCALE_UP)));
  }

  /** {@code extensions} with this memory's fields set (absent ones removed). */
  public Map<String, Object> into(Map<String, Object> extensions) {
    Map<String, Object> out = new LinkedHashMap<>(extensions);
    out.remove(LOW_SINCE);
    out.remove(LAST_SCALE_UP);
    if (lowSince != null) {
      out.put(LOW_SINCE, lowSince.toString());
    }
    if (lastScaleUp != null) {
      out.put(LAST_SCALE_UP, lastScaleUp.toString());
    }
    return out;
  }

  private static Instant instant(Object value) {
    if (!(value instanceof String text)) {
      return null;
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
