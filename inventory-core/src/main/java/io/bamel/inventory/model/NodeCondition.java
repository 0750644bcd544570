package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import java.time.Instant;
import java.util.Map;

/**
 * A condition of a node in the Kubernetes style, at {@code status.conditions}: a {@code type} (such
 * as {@code HardwareMismatch}), a {@code status} ({@code True}, {@code False}), a short {@code
 * reason}, a human {@code message}, and when the status last flipped. Only the node controller
 * writes them; one condition per type.
 *
 * @param type what the condition is about
 * @param status {@code True} or {@code False}
 * @param reason a CamelCase word
 * @param message the details, or null
 * @param lastTransitionTime when {@code status} last changed
 * @param extensions fields written by a newer bamel, kept as they are
 */
public record NodeCondition(
    String type,
    String status,
    String reason,
    String message,
    Instant lastTransitionTime,
    @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  /**
   * Normalises a missing extension map to an empty one; escapes control characters in {@code
   * message} ({@link UntrustedText}).
   */
  public NodeCondition {
    message = UntrustedText.escape(message);
    extensions = Extensions.copy(extensions);
  }

  /** A condition without extensions. */
  public NodeCondition(
      String type, String status, String reason, String message, Instant lastTransitionTime) {
    this(type, status, reason, message, lastTransitionTime, null);
  }

  /** {@code HardwareMismatch}: the inspected hardware differs from the DCIM-owned spec fields. */
  public static final String HARDWARE_MISMATCH = "HardwareMismatch";

  /**
   * {@code KubernetesIdentityRefused}: {@code True} while the Kubernetes node of this node's name
   * is not provably this machine (reason {@code Mismatch} or {@code Unknown}), so the node
   * controller does not cordon, drain, label or uncordon it; {@code False} (reason {@code Proven})
   * once it is.
   */
  public static final String KUBERNETES_IDENTITY_REFUSED = "KubernetesIdentityRefused";

  /** Whether {@code status} is {@code True}. */
  @JsonIgnore
  public boolean isTrue() {
    return "True".equals(status);
  }
}
