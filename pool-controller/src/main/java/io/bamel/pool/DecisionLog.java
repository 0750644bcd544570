package io.bamel.pool;

import java.util.Locale;

/**
 * The one log line of a scale decision, grep-able as {@code key=value} pairs: {@code pool=gpu
 * direction=up reason=pending-pods on=n1,n2 off=- desired=5 dryRun=false revision=812 detail="3
 * pending pods"}. Pure.
 */
public final class DecisionLog {

  private DecisionLog() {}

  /**
   * The line for {@code decision} of {@code pool}, written at {@code revision} (-1: not written).
   */
  public static String line(String pool, ScalingDecision decision, boolean dryRun, long revision) {
    String reason = decision.reason();
    String word = PoolStatuses.reasonWord(reason);
    String detail =
        reason.length() > word.length() + 1 ? reason.substring(word.length() + 1).trim() : "";
    return "pool decision pool="
        + pool
        + " direction="
        + decision.direction().name().toLowerCase(Locale.ROOT)
        + " reason="
        + word
        + " on="
        + list(decision.powerOnIds())
        + " off="
        + list(decision.powerOffIds())
        + " desired="
        + decision.desiredNodes()
        + " dryRun="
        + dryRun
        + " revision="
        + revision
        + " detail=\""
        + detail.replace("\"", "'")
        + "\"";
  }

  private static String list(java.util.List<String> ids) {
    return ids.isEmpty() ? "-" : String.join(",", ids);
  }
}
