package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import java.time.Instant;
import java.util.Map;

/**
 * A condition of a pool in the Kubernetes style: a {@code type} (such as {@code UtilizationKnown}),
 * a {@code status} ({@code True}, {@code False}, {@code Unknown}), and why.
 */
public record PoolCondition(
    String type,
    String status,
    String reason,
    String message,
    Instant lastTransitionTime,
    @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  /** Normalises a missing extension map to an empty one. */
  public PoolCondition {
    extensions = Extensions.copy(extensions);
  }
}
