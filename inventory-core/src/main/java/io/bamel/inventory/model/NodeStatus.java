package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.immutables.value.Value;

/**
 * What the node controller observed and did: the lifecycle state, the observed power state, the
 * last power action (recorded before the BMC is called: write-ahead), the Kubernetes node, and
 * errors. Stored at {@code /baremetal/nodes/{id}/status}; only the node controller writes it.
 *
 * <p>The step timer ({@code timerStarted}, {@code timerElapsed}) measures how long the current step
 * (power-on, join, drain, power-off) has taken; it can be paused (timerStarted null) while a step
 * cannot progress for reasons outside the node, such as an unreachable Kubernetes API. {@code
 * powerCycled} marks that the one power cycle allowed after a join timeout (or a remediation) was
 * made. {@code notReadySince} is when a {@code ready} node was first seen NotReady (or gone) in
 * Kubernetes; it is cleared when the node is Ready again. Past the pool's not-ready timeout such a
 * node no longer counts as pool capacity; past its remediation timeout it is power-cycled once.
 *
 * <p>Inspection: {@code inspectRequestedAt} is the one field another writer sets: the API's {@code
 * POST /api/v1/nodes/{id}/inspect} writes it (compare-and-swap on the status revision, so no
 * controller write is lost) and the node controller clears it in the write that stores the result
 * at {@code hardware} ({@link NodeHardware}). {@code conditions} (such as {@link
 * NodeCondition#HARDWARE_MISMATCH}) are absent when there are none.
 */
@Value.Builder
public record NodeStatus(
    NodeState state,
    Instant stateSince,
    String lastError,
    Integer errorCount,
    @JsonProperty("powerState") ObservedPower observedPower,
    PowerAction lastPowerAction,
    Instant powerActionTime,
    String kubernetesNode,
    Boolean nodeReady,
    Boolean bmcReachable,
    Instant bootTime,
    Instant joinTime,
    Long observedSpecRevision,
    Instant timerStarted,
    Duration timerElapsed,
    Boolean powerCycled,
    Instant inspectRequestedAt,
    NodeHardware hardware,
    List<NodeCondition> conditions,
    Instant notReadySince,
    @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  /**
   * Normalises a missing extension map to an empty one and no conditions to absent; escapes control
   * characters in {@code lastError} ({@link UntrustedText}: it carries BMC and Kubernetes text).
   */
  public NodeStatus {
    lastError = UntrustedText.escape(lastError);
    conditions = conditions == null || conditions.isEmpty() ? null : List.copyOf(conditions);
    extensions = Extensions.copy(extensions);
  }

  /** The status of a node the controller has not looked at yet. */
  public static NodeStatus initial(Instant now) {
    return builder()
        .state(NodeState.UNKNOWN)
        .stateSince(now)
        .observedPower(ObservedPower.UNKNOWN)
        .build();
  }

  /**
   * A builder starting from nothing; {@link NodeStatusBuilder} is generated (see the package), and
   * its {@code build()} runs this record's constructor.
   */
  public static NodeStatusBuilder builder() {
    return new NodeStatusBuilder();
  }

  /** A builder starting from this status. */
  public NodeStatusBuilder toBuilder() {
    return new NodeStatusBuilder().from(this);
  }

  /** The state, {@code unknown} when unset. */
  @JsonIgnore
  public NodeState stateOrUnknown() {
    return state == null ? NodeState.UNKNOWN : state;
  }

  /** The time the step timer has run at {@code now}: the paused total plus the running part. */
  public Duration timerAt(Instant now) {
    Duration elapsed = timerElapsed == null ? Duration.ZERO : timerElapsed;
    if (timerStarted != null && now.isAfter(timerStarted)) {
      elapsed = elapsed.plus(Duration.between(timerStarted, now));
    }
    return elapsed;
  }

  /** Whether a power cycle was made in the current join attempt. */
  @JsonIgnore
  public boolean cycled() {
    return Boolean.TRUE.equals(powerCycled);
  }

  /** The error count, 0 when unset. */
  @JsonIgnore
  public int errors() {
    return errorCount == null ? 0 : errorCount;
  }
}
