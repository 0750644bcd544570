package io.bamel.node;

import io.bamel.inventory.model.NodeCondition;
import io.bamel.inventory.model.NodeStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The {@link NodeCondition#KUBERNETES_IDENTITY_REFUSED} condition of a node, from the identity
 * check of its last look at Kubernetes ({@link KubeIdentity}). Pure.
 *
 * <p>{@code True} with reason {@code Mismatch} or {@code Unknown} while refused, {@code False} with
 * reason {@code Proven} once proven; left as it is when no Kubernetes node was found (nothing was
 * checked). Its transition time moves only when its status flips.
 */
final class IdentityCondition {

  private IdentityCondition() {}

  /** {@code status} with the condition for {@code verdict} (null: no check), or itself. */
  static NodeStatus apply(NodeStatus status, KubeIdentity.Verdict verdict, Instant now) {
    if (status == null || verdict == null) {
      return status;
    }
    List<NodeCondition> current = status.conditions() == null ? List.of() : status.conditions();
    NodeCondition before = find(status);
    String state = verdict.proven() ? "False" : "True";
    String reason =
        switch (verdict.outcome()) {
          case PROVEN -> "Proven";
          case MISMATCH -> "Mismatch";
          case UNKNOWN -> "Unknown";
        };
    Instant since =
        before != null && state.equals(before.status()) ? before.lastTransitionTime() : now;
    Map<String, Object> kept = before == null ? null : before.extensions();
    NodeCondition after =
        new NodeCondition(
            NodeCondition.KUBERNETES_IDENTITY_REFUSED,
            state,
            reason,
            verdict.detail(),
            since,
            kept);
    if (Objects.equals(before, after)) {
      return status;
    }
    List<NodeCondition> next = new ArrayList<>();
    for (NodeCondition c : current) {
      if (!NodeCondition.KUBERNETES_IDENTITY_REFUSED.equals(c.type())) {
        next.add(c);
      }
    }
    next.add(after);
    return status.toBuilder().conditions(next).build();
  }

  /**
   * Whether going from {@code before} to {@code after} is a new refusal: the condition turned
   * {@code True}, or changed its reason while {@code True}.
   */
  static boolean newRefusal(NodeStatus before, NodeStatus after) {
    NodeCondition b = before == null ? null : find(before);
    NodeCondition a = after == null ? null : find(after);
    if (a == null || !a.isTrue()) {
      return false;
    }
    return b == null || !b.isTrue() || !Objects.equals(a.reason(), b.reason());
  }

  /** The condition in {@code status}, or null. */
  static NodeCondition find(NodeStatus status) {
    if (status.conditions() == null) {
      return null;
    }
    return status.conditions().stream()
        .filter(c -> NodeCondition.KUBERNETES_IDENTITY_REFUSED.equals(c.type()))
        .findFirst()
        .orElse(null);
  }
}
