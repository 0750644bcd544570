package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import java.time.Instant;
import java.util.Map;

/**
 * A node the pool controller is switching on or off: which, in which direction ({@code power-on} or
 * {@code power-off}), since when, its current state, the capacity it brings or takes away, and why
 * it was chosen.
 */
public record ScalingNode(
    String node,
    String action,
    Instant since,
    NodeState state,
    ResourceCapacity resources,
    String reason,
    @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  /** Normalises a missing extension map to an empty one. */
  public ScalingNode {
    extensions = Extensions.copy(extensions);
  }
}
