package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import java.time.Instant;
import java.util.Map;

/**
 * One entry of a node's history: a state transition, a power action and its result, or an inventory
 * change, with who did it ({@code principal}, {@code requestId}). Written in the same etcd
 * transaction as the change it records; {@code seq} is assigned by the store, increasing per node.
 * A node keeps a bounded number of events (default 100), oldest dropped first.
 */
public record NodeEvent(
    Long seq,
    Instant time,
    String reason,
    NodeState from,
    NodeState to,
    String action,
    String result,
    String message,
    String principal,
    String requestId,
    @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  /**
   * Normalises a missing extension map to an empty one; escapes control characters in {@code
   * reason} and {@code message} ({@link UntrustedText}: they may quote a BMC or Kubernetes).
   */
  public NodeEvent {
    reason = UntrustedText.escape(reason);
    message = UntrustedText.escape(message);
    extensions = Extensions.copy(extensions);
  }

  /** An event with just a time, a reason and a message. */
  public static NodeEvent of(Instant time, String reason, String message) {
    return new NodeEvent(null, time, reason, null, null, null, null, message, null, null, null);
  }

  /** An inventory change made by {@code principal} in request {@code requestId}. */
  public static NodeEvent change(
      Instant time, String reason, String message, String principal, String requestId) {
    return new NodeEvent(
        null, time, reason, null, null, null, null, message, principal, requestId, null);
  }

  /** A state transition with the action taken and its result. */
  public static NodeEvent transition(
      Instant time, NodeState from, NodeState to, String reason, String action, String result) {
    return new NodeEvent(null, time, reason, from, to, action, result, null, null, null, null);
  }

  /** This event with {@code seq} set. */
  public NodeEvent withSeq(long seq) {
    return new NodeEvent(
        seq, time, reason, from, to, action, result, message, principal, requestId, extensions);
  }
}
