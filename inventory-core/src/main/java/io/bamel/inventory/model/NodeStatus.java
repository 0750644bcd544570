package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import java.time.Instant;
import java.util.Map;

/**
 * What the node controller observed and did: the lifecycle state, the observed power state, the
 * last power action (recorded before the BMC is called: write-ahead), the Kubernetes node, and
 * errors. Stored at {@code /baremetal/nodes/{id}/status}; only the node controller writes it.
 */
public record NodeStatus(
    NodeState state,
    Instant stateSince,
    String lastError,
    Integer errorCount,
    PowerState powerState,
    String lastPowerAction,
    Instant powerActionTime,
    String kubernetesNode,
    Boolean nodeReady,
    Boolean bmcReachable,
    Instant bootTime,
    Instant joinTime,
    Long observedSpecRevision,
    @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  /** Normalises a missing extension map to an empty one. */
  public NodeStatus {
    extensions = Extensions.copy(extensions);
  }

  /** The status of a node the controller has not looked at yet. */
  public static NodeStatus initial(Instant now) {
    return builder()
        .state(NodeState.UNKNOWN)
        .stateSince(now)
        .powerState(PowerState.UNKNOWN)
        .build();
  }

  /** A builder starting from nothing. */
  public static NodeStatusBuilder builder() {
    return new NodeStatusBuilder();
  }

  /** A builder starting from this status. */
  public NodeStatusBuilder toBuilder() {
    return new NodeStatusBuilder(this);
  }

  /** The state, {@code unknown} when unset. */
  @JsonIgnore
  public NodeState stateOrUnknown() {
    return state == null ? NodeState.UNKNOWN : state;
  }

  /** The error count, 0 when unset. */
  @JsonIgnore
  public int errors() {
    return errorCount == null ? 0 : errorCount;
  }
}
