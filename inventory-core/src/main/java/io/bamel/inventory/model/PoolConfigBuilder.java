package io.bamel.inventory.model;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Builds a {@link PoolConfig}; start from {@link PoolConfig#builder()} or {@link
 * PoolConfig#toBuilder()}. Each setter sets the component of its name; {@link #build} runs the
 * record's constructor, so its normalisation applies.
 */
public final class PoolConfigBuilder {

  private Integer minNodes;
  private Integer maxNodes;
  private Double scaleUpThreshold;
  private Double scaleDownThreshold;
  private Duration scaleDownUnneededTime;
  private Duration delayAfterScaleUp;
  private Duration scaleUpCooldown;
  private Integer maxConcurrentTransitions;
  private List<String> resources;
  private Boolean defaultPool;
  private String scaleUpOn;
  private Map<String, String> labels;
  private NodeTimeouts timeouts;
  private List<ScalingTrigger> triggers;
  private Boolean dryRun;
  private Duration scaleUpTrendWindow;
  private Duration scaleUpLookahead;
  private Map<String, Object> extensions;

  PoolConfigBuilder() {}

  PoolConfigBuilder(PoolConfig s) {
    this.minNodes = s.minNodes();
    this.maxNodes = s.maxNodes();
    this.scaleUpThreshold = s.scaleUpThreshold();
    this.scaleDownThreshold = s.scaleDownThreshold();
    this.scaleDownUnneededTime = s.scaleDownUnneededTime();
    this.delayAfterScaleUp = s.delayAfterScaleUp();
    this.scaleUpCooldown = s.scaleUpCooldown();
    this.maxConcurrentTransitions = s.maxConcurrentTransitions();
    this.resources = s.resources();
    this.defaultPool = s.defaultPool();
    this.scaleUpOn = s.scaleUpOn();
    this.labels = s.labels();
    this.timeouts = s.timeouts();
    this.triggers = s.triggers();
    this.dryRun = s.dryRun();
    this.scaleUpTrendWindow = s.scaleUpTrendWindow();
    this.scaleUpLookahead = s.scaleUpLookahead();
    this.extensions = s.extensions();
  }

  public PoolConfigBuilder minNodes(Integer minNodes) {
    this.minNodes = minNodes;
    return this;
  }

  public PoolConfigBuilder maxNodes(Integer maxNodes) {
    this.maxNodes = maxNodes;
    return this;
  }

  public PoolConfigBuilder scaleUpThreshold(Double scaleUpThreshold) {
    this.scaleUpThreshold = scaleUpThreshold;
    return this;
  }

  public PoolConfigBuilder scaleDownThreshold(Double scaleDownThreshold) {
    this.scaleDownThreshold = scaleDownThreshold;
    return this;
  }

  public PoolConfigBuilder scaleDownUnneededTime(Duration scaleDownUnneededTime) {
    this.scaleDownUnneededTime = scaleDownUnneededTime;
    return this;
  }

  public PoolConfigBuilder scaleUpCooldown(Duration scaleUpCooldown) {
    this.scaleUpCooldown = scaleUpCooldown;
    return this;
  }

  public PoolConfigBuilder delayAfterScaleUp(Duration delayAfterScaleUp) {
    this.delayAfterScaleUp = delayAfterScaleUp;
    return this;
  }

  public PoolConfigBuilder maxConcurrentTransitions(Integer maxConcurrentTransitions) {
    this.maxConcurrentTransitions = maxConcurrentTransitions;
    return this;
  }

  public PoolConfigBuilder resources(List<String> resources) {
    this.resources = resources;
    return this;
  }

  public PoolConfigBuilder defaultPool(Boolean defaultPool) {
    this.defaultPool = defaultPool;
    return this;
  }

  public PoolConfigBuilder scaleUpOn(String scaleUpOn) {
    this.scaleUpOn = scaleUpOn;
    return this;
  }

  public PoolConfigBuilder labels(Map<String, String> labels) {
    this.labels = labels;
    return this;
  }

  public PoolConfigBuilder timeouts(NodeTimeouts timeouts) {
    this.timeouts = timeouts;
    return this;
  }

  public PoolConfigBuilder triggers(List<ScalingTrigger> triggers) {
    this.triggers = triggers;
    return this;
  }

  public PoolConfigBuilder dryRun(Boolean dryRun) {
    this.dryRun = dryRun;
    return this;
  }

  public PoolConfigBuilder scaleUpTrendWindow(Duration scaleUpTrendWindow) {
    this.scaleUpTrendWindow = scaleUpTrendWindow;
    return this;
  }

  public PoolConfigBuilder scaleUpLookahead(Duration scaleUpLookahead) {
    this.scaleUpLookahead = scaleUpLookahead;
    return this;
  }

  public PoolConfigBuilder extensions(Map<String, Object> extensions) {
    this.extensions = extensions;
    return this;
  }

  /** The PoolConfig. */
  public PoolConfig build() {
    return new PoolConfig(
        minNodes,
        maxNodes,
        scaleUpThreshold,
        scaleDownThreshold,
        scaleDownUnneededTime,
        delayAfterScaleUp,
        scaleUpCooldown,
        maxConcurrentTransitions,
        resources,
        defaultPool,
        scaleUpOn,
        labels,
        timeouts,
        triggers,
        dryRun,
        scaleUpTrendWindow,
        scaleUpLookahead,
        extensions);
  }
}
