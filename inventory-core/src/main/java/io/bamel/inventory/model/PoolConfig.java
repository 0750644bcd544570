package io.bamel.inventory.model;

import static java.util.Objects.requireNonNullElse;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.immutables.value.Value;

/**
 * How a pool scales: size bounds, utilization thresholds and windows, which resources count, which
 * pending pods it serves, per-pool node timeouts, Prometheus triggers, consolidation and dry-run.
 * Stored at {@code /baremetal/pools/{pool}/config}. Absent values take the defaults of {@link
 * #withDefaults()}.
 */
@Value.Builder
public record PoolConfig(
    Integer minNodes,
    Integer maxNodes,
    Double scaleUpThreshold,
    Double scaleDownThreshold,
    Duration scaleDownUnneededTime,
    Duration delayAfterScaleUp,
    Duration scaleUpCooldown,
    Integer maxConcurrentTransitions,
    List<String> resources,
    @JsonProperty("default") Boolean defaultPool,
    String scaleUpOn,
    Map<String, String> labels,
    NodeTimeouts timeouts,
    List<ScalingTrigger> triggers,
    Boolean dryRun,
    Duration scaleUpTrendWindow,
    Duration scaleUpLookahead,
    Boolean consolidate,
    @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  /** Scale up when pods are pending or utilization is high (the default). */
  public static final String SCALE_UP_ON_EITHER = "either";

  /** Scale up only when pods are pending. */
  public static final String SCALE_UP_ON_PENDING = "pending";

  /** Scale up only when utilization is high and pods are pending. */
  public static final String SCALE_UP_ON_BOTH = "both";

  /** The longest trend window or lookahead (the pool controller keeps one sample per cycle). */
  public static final Duration MAX_TREND_WINDOW = Duration.ofHours(2);

  /** The trend window of a pool that sets none. */
  static final Duration DEFAULT_TREND_WINDOW = Duration.ZERO;

  /** Copies the collections and normalises missing ones to empty. */
  public PoolConfig {
    resources = Copies.list("resources", resources);
    labels = Copies.map("labels", labels);
    triggers = triggers == null ? List.of() : Copies.list("triggers", triggers);
    extensions = Extensions.copy(extensions);
  }

  /**
   * A builder starting from nothing; {@link PoolConfigBuilder} is generated (see the package), and
   * its {@code build()} runs this record's constructor.
   */
  public static PoolConfigBuilder builder() {
    return new PoolConfigBuilder();
  }

  /** A builder starting from this config. */
  public PoolConfigBuilder toBuilder() {
    return new PoolConfigBuilder().from(this);
  }

  /**
   * This config with every absent value set to its default: minNodes 0, maxNodes unbounded,
   * thresholds 0.70 up and 0.60 down (the scale-down threshold chosen by replaying the generated 7-
   * and 34-day workloads in the pool controller's simulator: the least energy that adds no wait
   * while keeping 0.10 of hysteresis below the scale-up threshold; a pool whose own scale-up
   * threshold is lower gets that threshold less 0.10, so a config valid under the earlier 0.30
   * default stays valid), scaleDownUnneededTime and delayAfterScaleUp 10 min, scaleUpCooldown
   * (between utilization- or trigger-driven scale-ups) 2 min, maxConcurrentTransitions 5, resources
   * cpu and memory, scale up on either pending pods or utilization, node timeouts of {@link
   * NodeTimeouts#DEFAULTS}, no dry run, no scale-up on the demand's trend ({@code
   * scaleUpTrendWindow} 0: at the default thresholds pods start on time without it, and the
   * simulator shows it only adds power-ons there) with a lookahead of 5 min when one is set, no
   * consolidation ({@code consolidate} false).
   */
  public PoolConfig withDefaults() {
    double up = requireNonNullElse(scaleUpThreshold, 0.70);
    return toBuilder()
        .minNodes(requireNonNullElse(minNodes, 0))
        .maxNodes(requireNonNullElse(maxNodes, Integer.MAX_VALUE))
        .scaleUpThreshold(up)
        .scaleDownThreshold(requireNonNullElse(scaleDownThreshold, defaultScaleDown(up)))
        .scaleDownUnneededTime(requireNonNullElse(scaleDownUnneededTime, Duration.ofMinutes(10)))
        .delayAfterScaleUp(requireNonNullElse(delayAfterScaleUp, Duration.ofMinutes(10)))
        .scaleUpCooldown(requireNonNullElse(scaleUpCooldown, Duration.ofMinutes(2)))
        .maxConcurrentTransitions(requireNonNullElse(maxConcurrentTransitions, 5))
        .resources(
            requireNonNullElse(resources, List.of(ResourceCapacity.CPU, ResourceCapacity.MEMORY)))
        .defaultPool(requireNonNullElse(defaultPool, Boolean.FALSE))
        .scaleUpOn(requireNonNullElse(scaleUpOn, SCALE_UP_ON_EITHER))
        .timeouts(timeouts != null ? timeouts.orElse(NodeTimeouts.DEFAULTS) : NodeTimeouts.DEFAULTS)
        .dryRun(requireNonNullElse(dryRun, Boolean.FALSE))
        .scaleUpTrendWindow(requireNonNullElse(scaleUpTrendWindow, DEFAULT_TREND_WINDOW))
        .scaleUpLookahead(requireNonNullElse(scaleUpLookahead, Duration.ofMinutes(5)))
        .consolidate(requireNonNullElse(consolidate, Boolean.FALSE))
        .build();
  }

  /**
   * Checks every field and reports all problems at once.
   *
   * @throws InvalidInputException listing every invalid field
   */
  public PoolConfig validate() {
    Validator v = new Validator();
    v.check(minNodes == null || minNodes >= 0, "minNodes", "must not be negative");
    v.check(maxNodes == null || maxNodes >= 0, "maxNodes", "must not be negative");
    v.check(
        minNodes == null || maxNodes == null || minNodes <= maxNodes,
        "maxNodes",
        "must be at least minNodes");
    checkRatio(v, "scaleUpThreshold", scaleUpThreshold);
    checkRatio(v, "scaleDownThreshold", scaleDownThreshold);
    PoolConfig d = withDefaults();
    v.check(
        d.scaleDownThreshold() < d.scaleUpThreshold(),
        "scaleDownThreshold",
        "must be below scaleUpThreshold (" + d.scaleUpThreshold() + ")");
    Durations.checkNonNegative(v, "scaleDownUnneededTime", scaleDownUnneededTime);
    Durations.checkNonNegative(v, "delayAfterScaleUp", delayAfterScaleUp);
    Durations.checkNonNegative(v, "scaleUpCooldown", scaleUpCooldown);
    Durations.checkNonNegative(v, "scaleUpTrendWindow", scaleUpTrendWindow);
    v.check(
        scaleUpTrendWindow == null || scaleUpTrendWindow.compareTo(MAX_TREND_WINDOW) <= 0,
        "scaleUpTrendWindow",
        "must be at most " + Durations.format(MAX_TREND_WINDOW) + " (0 turns the trend off)");
    Durations.checkNonNegative(v, "scaleUpLookahead", scaleUpLookahead);
    v.check(
        scaleUpLookahead == null || scaleUpLookahead.compareTo(MAX_TREND_WINDOW) <= 0,
        "scaleUpLookahead",
        "must be at most " + Durations.format(MAX_TREND_WINDOW));
    v.check(
        maxConcurrentTransitions == null || maxConcurrentTransitions >= 1,
        "maxConcurrentTransitions",
        "must be at least 1");
    if (resources != null) {
      v.check(!resources.isEmpty(), "resources", "must name at least one resource");
      for (String r : resources) {
        v.check(
            r != null && !r.isBlank() && r.length() <= 253,
            "resources",
            "not a resource name: " + Texts.quote(r));
      }
    }
    v.check(
        scaleUpOn == null
            || List.of(SCALE_UP_ON_EITHER, SCALE_UP_ON_PENDING, SCALE_UP_ON_BOTH)
                .contains(scaleUpOn),
        "scaleUpOn",
        "must be either, pending or both");
    Labels.validate(v.at("labels"), labels);
    if (timeouts != null) {
      timeouts.validate(v.at("timeouts"));
    }
    for (int i = 0; i < triggers.size(); i++) {
      if (triggers.get(i) == null) {
        v.error("triggers[" + i + "]", "must not be null");
      } else {
        triggers.get(i).validate(v.at("triggers[" + i + "]"));
      }
    }
    v.throwIfInvalid();
    return this;
  }

  private static void checkRatio(Validator v, String field, Double value) {
    v.check(
        value == null || value > 0 && value <= 1, field, "must be a ratio above 0 and at most 1");
  }

  /**
   * The scale-down threshold of a pool that sets none: 0.60, or 0.10 below the pool's scale-up
   * threshold when that is lower (never below 0).
   */
  static double defaultScaleDown(double scaleUp) {
    double below = Math.round((scaleUp - 0.10) * 100) / 100.0;
    return Math.max(0.0, Math.min(0.60, below));
  }
}
