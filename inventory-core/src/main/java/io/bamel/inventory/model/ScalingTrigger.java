package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import java.time.Duration;
import java.util.Map;

/**
 * A Prometheus query that votes for scaling a pool: when the instant query's value is above {@code
 * threshold} (for {@code up}) or below it (for {@code down}) for {@code duration}, the trigger
 * votes in {@code scaleDirection}.
 */
public record ScalingTrigger(
    String name,
    String metricQuery,
    Double threshold,
    Duration duration,
    String scaleDirection,
    @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  /** Normalises a missing extension map to an empty one. */
  public ScalingTrigger {
    extensions = Extensions.copy(extensions);
  }

  void validate(Validator v) {
    v.check(
        metricQuery != null && !metricQuery.isBlank() && metricQuery.length() <= 4096,
        "metricQuery",
        "must be a PromQL query of at most 4096 characters");
    v.check(threshold != null && Double.isFinite(threshold), "threshold", "must be a number");
    Durations.checkNonNegative(v, "duration", duration);
    v.check(
        "up".equals(scaleDirection) || "down".equals(scaleDirection),
        "scaleDirection",
        "must be up or down");
  }
}
