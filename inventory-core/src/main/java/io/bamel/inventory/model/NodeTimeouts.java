package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import java.time.Duration;
import java.util.Map;

/**
 * How long each lifecycle step may take before the node controller acts: power-on (BMC still not
 * on), join (the Kubernetes node not Ready), drain, and power-off (then forced); how long a ready
 * node may be NotReady (or gone) in Kubernetes before it stops counting as pool capacity ({@code
 * notReady}) and before it is power-cycled once ({@code remediation}, counted from the same start);
 * and how long a power-on written ahead may find the BMC off before it is sent again, once ({@code
 * powerOnConfirm}: the command may never have reached the BMC). Absent values fall back to the
 * global settings, then to {@link #DEFAULTS}.
 */
public record NodeTimeouts(
    Duration powerOn,
    Duration join,
    Duration drain,
    Duration powerOff,
    Duration notReady,
    Duration remediation,
    Duration powerOnConfirm,
    @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  /**
   * The defaults: power-on 5 min, join 20 min, drain 10 min, power-off 5 min, not-ready 5 min,
   * remediation 15 min, power-on confirmation 60 s.
   */
  public static final NodeTimeouts DEFAULTS =
      new NodeTimeouts(
          Duration.ofMinutes(5),
          Duration.ofMinutes(20),
          Duration.ofMinutes(10),
          Duration.ofMinutes(5),
          Duration.ofMinutes(5),
          Duration.ofMinutes(15),
          Duration.ofSeconds(60),
          null);

  /** The four step timeouts; the not-ready, remediation and confirmation ones absent. */
  public static NodeTimeouts of(
      Duration powerOn, Duration join, Duration drain, Duration powerOff) {
    return new NodeTimeouts(powerOn, join, drain, powerOff, null, null, null, null);
  }

  /** These timeouts with other not-ready and remediation timeouts. */
  public NodeTimeouts withNotReady(Duration notReady, Duration remediation) {
    return new NodeTimeouts(
        powerOn, join, drain, powerOff, notReady, remediation, powerOnConfirm, extensions);
  }

  /** These timeouts with another power-on confirmation window. */
  public NodeTimeouts withPowerOnConfirm(Duration confirm) {
    return new NodeTimeouts(
        powerOn, join, drain, powerOff, notReady, remediation, confirm, extensions);
  }

  /** Normalises a missing extension map to an empty one. */
  public NodeTimeouts {
    extensions = Extensions.copy(extensions);
  }

  /** These timeouts with every absent one taken from {@code fallback}. */
  public NodeTimeouts orElse(NodeTimeouts fallback) {
    if (fallback == null) {
      return this;
    }
    return new NodeTimeouts(
        powerOn != null ? powerOn : fallback.powerOn,
        join != null ? join : fallback.join,
        drain != null ? drain : fallback.drain,
        powerOff != null ? powerOff : fallback.powerOff,
        notReady != null ? notReady : fallback.notReady,
        remediation != null ? remediation : fallback.remediation,
        powerOnConfirm != null ? powerOnConfirm : fallback.powerOnConfirm,
        extensions);
  }

  void validate(Validator v) {
    Durations.checkPositive(v, "powerOn", powerOn);
    Durations.checkPositive(v, "join", join);
    Durations.checkPositive(v, "drain", drain);
    Durations.checkPositive(v, "powerOff", powerOff);
    Durations.checkPositive(v, "notReady", notReady);
    Durations.checkPositive(v, "remediation", remediation);
    Durations.checkPositive(v, "powerOnConfirm", powerOnConfirm);
    if (notReady != null && remediation != null && remediation.compareTo(notReady) < 0) {
      v.error("remediation", "must be at least notReady (" + Durations.format(notReady) + ")");
    }
    if (powerOn != null && powerOnConfirm != null && powerOnConfirm.compareTo(powerOn) >= 0) {
      v.error("powerOnConfirm", "must be below powerOn (" + Durations.format(powerOn) + ")");
    }
  }
}
