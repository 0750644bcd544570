package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A condition that votes for scaling a pool, evaluated by the pool controller's evaluator of its
 * {@code kind}. The default kind, {@value #PROMETHEUS} (an absent {@code kind}, as in every config
 * written before kinds existed), is a Prometheus query: when the instant query's value is above
 * {@code threshold} (for {@code up}) or below it (for {@code down}) for {@code duration}, the
 * trigger votes in {@code scaleDirection}. Another kind reads the fields it needs; {@code
 * scaleDirection} and {@code duration} mean the same for every kind. Whether a kind has an
 * evaluator is the pool controller's to say (its pool shows a trigger it cannot evaluate as
 * unavailable), so the model checks only the kind's spelling.
 *
 * @param kind the evaluator kind; null means {@value #PROMETHEUS}
 */
public record ScalingTrigger(
    String name,
    String metricQuery,
    Double threshold,
    Duration duration,
    ScaleDirection scaleDirection,
    String kind,
    @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  /** The kind of a trigger without one: a Prometheus instant query. */
  public static final String PROMETHEUS = "prometheus";

  private static final Pattern KIND = Pattern.compile("[a-z][a-z0-9-]{0,62}");

  /** Normalises a missing extension map to an empty one. */
  public ScalingTrigger {
    extensions = Extensions.copy(extensions);
  }

  /** A Prometheus trigger (no {@code kind} written). */
  public ScalingTrigger(
      String name,
      String metricQuery,
      Double threshold,
      Duration duration,
      ScaleDirection scaleDirection,
      Map<String, Object> extensions) {
    this(name, metricQuery, threshold, duration, scaleDirection, null, extensions);
  }

  /** The kind of evaluator this trigger needs: {@code kind}, or {@value #PROMETHEUS}. */
  public String evaluatorKind() {
    return kind == null ? PROMETHEUS : kind;
  }

  void validate(Validator v) {
    v.check(
        kind == null || KIND.matcher(kind).matches(),
        "kind",
        "must be lowercase letters, digits and dashes, at most 63");
    boolean prometheus = PROMETHEUS.equals(evaluatorKind());
    v.check(
        metricQuery == null ? !prometheus : !metricQuery.isBlank() && metricQuery.length() <= 4096,
        "metricQuery",
        "must be a PromQL query of at most 4096 characters");
    v.check(
        threshold == null ? !prometheus : Double.isFinite(threshold),
        "threshold",
        "must be a number");
    Durations.checkNonNegative(v, "duration", duration);
    v.check(scaleDirection != null, "scaleDirection", "must be up or down");
  }
}
