package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import java.time.Duration;
import java.util.Map;

/**
 * How long each lifecycle step may take before the node controller acts: power-on (BMC still not
 * on), join (the Kubernetes node not Ready), drain, and power-off (then forced). Absent values fall
 * back to the global settings, then to {@link #DEFAULTS}.
 */
public record NodeTimeouts(
    Duration powerOn,
    Duration join,
    Duration drain,
    Duration powerOff,
    @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  /** The defaults: power-on 5 min, join 20 min, drain 10 min, power-off 5 min. */
  public static final NodeTimeouts DEFAULTS =
      new NodeTimeouts(
          Duration.ofMinutes(5),
          Duration.ofMinutes(20),
          Duration.ofMinutes(10),
          Duration.ofMinutes(5),
          null);

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
        extensions);
  }

  void validate(Validator v) {
    Durations.checkPositive(v, "powerOn", powerOn);
    Durations.checkPositive(v, "join", join);
    Durations.checkPositive(v, "drain", drain);
    Durations.checkPositive(v, "powerOff", powerOff);
  }
}
