package io.bamel.inventory.model;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Builds a {@link PoolStatus}; start from {@link PoolStatus#builder()} or {@link
 * PoolStatus#toBuilder()}. Each setter sets the component of its name; {@link #build} runs the
 * record's constructor, so its normalisation applies.
 */
public final class PoolStatusBuilder {

  private Integer readyNodes;
  private Integer pendingNodes;
  private Integer desiredNodes;
  private List<ScalingNode> scalingNodes;
  private ResourceCapacity availableResources;
  private ResourceCapacity activeResources;
  private ResourceCapacity pendingResources;
  private Map<String, Double> utilization;
  private Instant lastScaleTime;
  private List<PoolCondition> conditions;
  private Map<String, Object> extensions;

  PoolStatusBuilder() {}

  PoolStatusBuilder(PoolStatus s) {
    this.readyNodes = s.readyNodes();
    this.pendingNodes = s.pendingNodes();
    this.desiredNodes = s.desiredNodes();
    this.scalingNodes = s.scalingNodes();
    this.availableResources = s.availableResources();
    this.activeResources = s.activeResources();
    this.pendingResources = s.pendingResources();
    this.utilization = s.utilization();
    this.lastScaleTime = s.lastScaleTime();
    this.conditions = s.conditions();
    this.extensions = s.extensions();
  }

  public PoolStatusBuilder readyNodes(Integer readyNodes) {
    this.readyNodes = readyNodes;
    return this;
  }

  public PoolStatusBuilder pendingNodes(Integer pendingNodes) {
    this.pendingNodes = pendingNodes;
    return this;
  }

  public PoolStatusBuilder desiredNodes(Integer desiredNodes) {
    this.desiredNodes = desiredNodes;
    return this;
  }

  public PoolStatusBuilder scalingNodes(List<ScalingNode> scalingNodes) {
    this.scalingNodes = scalingNodes;
    return this;
  }

  public PoolStatusBuilder availableResources(ResourceCapacity availableResources) {
    this.availableResources = availableResources;
    return this;
  }

  public PoolStatusBuilder activeResources(ResourceCapacity activeResources) {
    this.activeResources = activeResources;
    return this;
  }

  public PoolStatusBuilder pendingResources(ResourceCapacity pendingResources) {
    this.pendingResources = pendingResources;
    return this;
  }

  public PoolStatusBuilder utilization(Map<String, Double> utilization) {
    this.utilization = utilization;
    return this;
  }

  public PoolStatusBuilder lastScaleTime(Instant lastScaleTime) {
    this.lastScaleTime = lastScaleTime;
    return this;
  }

  public PoolStatusBuilder conditions(List<PoolCondition> conditions) {
    this.conditions = conditions;
    return this;
  }

  public PoolStatusBuilder extensions(Map<String, Object> extensions) {
    this.extensions = extensions;
    return this;
  }

  /** The PoolStatus. */
  public PoolStatus build() {
    return new PoolStatus(
        readyNodes,
        pendingNodes,
        desiredNodes,
        scalingNodes,
        availableResources,
        activeResources,
        pendingResources,
        utilization,
        lastScaleTime,
        conditions,
        extensions);
  }
}
