package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.immutables.value.Value;

/**
 * What the pool controller last decided and observed: node counts, the nodes being switched and
 * why, capacity (available when all members are on, active on ready nodes, pending in requests of
 * unschedulable pods), utilization per resource, the last scale time, and conditions. Stored at
 * {@code /baremetal/pools/{pool}/status}; only the pool controller writes it.
 */
@Value.Builder
public record PoolStatus(
    Integer readyNodes,
    Integer pendingNodes,
    Integer desiredNodes,
    List<ScalingNode> scalingNodes,
    ResourceCapacity availableResources,
    ResourceCapacity activeResources,
    ResourceCapacity pendingResources,
    Map<String, Double> utilization,
    Instant lastScaleTime,
    List<PoolCondition> conditions,
    @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  /** Copies the collections and normalises missing ones to empty. */
  public PoolStatus {
    scalingNodes = scalingNodes == null ? List.of() : List.copyOf(scalingNodes);
    utilization = utilization == null ? Map.of() : Map.copyOf(utilization);
    conditions = conditions == null ? List.of() : List.copyOf(conditions);
    extensions = Extensions.copy(extensions);
  }

  /**
   * A builder starting from nothing; {@link PoolStatusBuilder} is generated (see the package), and
   * its {@code build()} runs this record's constructor.
   */
  public static PoolStatusBuilder builder() {
    return new PoolStatusBuilder();
  }

  /** A builder starting from this status. */
  public PoolStatusBuilder toBuilder() {
    return new PoolStatusBuilder().from(this);
  }
}
