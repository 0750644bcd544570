package io.bamel.inventory.maintenance;

import java.util.Set;

/**
 * What etcd's space looks like, and what bamel makes of it. etcd refuses every write once its
 * database reaches the backend quota (the NOSPACE alarm) until an operator compacts, defragments
 * and disarms the alarm; bamel warns well before that.
 *
 * @param dbSizeBytes the largest database file among the members (what the quota is checked
 *     against)
 * @param dbSizeInUseBytes the bytes of it that hold live data (the rest is reclaimable by
 *     defragmentation)
 * @param quotaBytes the backend quota bamel was told about ({@code etcd.quotaBytes})
 * @param alarms the alarms etcd raised ({@code NOSPACE}, {@code CORRUPT})
 */
public record EtcdSpace(
    long dbSizeBytes, long dbSizeInUseBytes, long quotaBytes, Set<String> alarms) {

  /** The share of the quota in use at which bamel warns. */
  public static final double WARN_RATIO = 0.8;

  /** Nothing measured yet. */
  public static final EtcdSpace UNKNOWN = new EtcdSpace(0, 0, 0, Set.of());

  /** How serious it is. */
  public enum Level {
    /** Room to spare (or not measured yet). */
    OK,
    /** Above {@link #WARN_RATIO} of the quota: compact and defragment, or raise the quota. */
    NEARLY_FULL,
    /** etcd raised an alarm: it refuses writes until an operator acts. */
    ALARM
  }

  /** Normalises the alarm set. */
  public EtcdSpace {
    alarms = Set.copyOf(alarms);
  }

  /** The share of the quota the database file takes (0 when the quota is unknown). */
  public double quotaUse() {
    return quotaBytes <= 0 ? 0 : (double) dbSizeBytes / quotaBytes;
  }

  /** The verdict. */
  public Level level() {
    if (!alarms.isEmpty()) {
      return Level.ALARM;
    }
    return quotaUse() >= WARN_RATIO ? Level.NEARLY_FULL : Level.OK;
  }

  /** One line for an operator: what is wrong and what to do; null when all is well. */
  public String problem() {
    return switch (level()) {
      case OK -> null;
      case NEARLY_FULL ->
          String.format(
              "etcd database is %d MiB, %.0f%% of its %d MiB quota (%d MiB in use): defragment"
                  + " it (bamel etcd defrag) or raise the quota before etcd refuses writes",
              dbSizeBytes >> 20, quotaUse() * 100, quotaBytes >> 20, dbSizeInUseBytes >> 20);
      case ALARM ->
          "etcd raised alarm "
              + String.join(", ", alarms.stream().sorted().toList())
              + ": it refuses every write until an operator compacts, defragments and disarms"
              + " it (see docs/operations.md, etcd space)";
    };
  }
}
