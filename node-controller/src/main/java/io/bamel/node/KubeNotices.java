package io.bamel.node;

import io.bamel.inventory.cluster.NodeNotice;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeState;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the node controller tells Kubernetes about a node, as Events on the Node ({@link
 * NodeNotice}): each state transition (power actions included: the write-ahead of a power-on is the
 * transition to {@code powering-on}) and each drain. Pure.
 */
final class KubeNotices {

  private KubeNotices() {}

  /**
   * The Event of transition {@code event} of a node known to Kubernetes as {@code kubeName}: reason
   * the new state in UpperCamelCase ({@code PoweringOn}), action the power or Kubernetes action
   * taken (else {@code Transition}), a Warning when the node went to {@code error} or the action
   * failed. Null when {@code event} is not a transition.
   */
  static NodeNotice transition(String kubeName, NodeEvent event) {
    if (event == null || event.to() == null || event.from() == event.to()) {
      return null;
    }
    boolean failed =
        event.to() == NodeState.ERROR
            || (event.result() != null && event.result().toLowerCase(Locale.ROOT).contains("fail"));
    String action =
        event.action() == null || event.action().isBlank() ? "Transition" : camel(event.action());
    String note =
        event.from()
            + " -> "
            + event.to()
            + (event.reason() == null ? "" : ": " + event.reason())
            + (event.result() == null ? "" : " (result " + event.result() + ")");
    return new NodeNotice(kubeName, failed, camel(event.to().toString()), action, note);
  }

  /** The Event of a drain of {@code kubeName}: what was evicted and what was refused. */
  static NodeNotice drain(String kubeName, List<?> evicted, Map<String, String> refused) {
    StringBuilder note =
        new StringBuilder("cordoned; ")
            .append(evicted.size() - refused.size())
            .append(" of ")
            .append(evicted.size())
            .append(" pod(s) evicted");
    if (!refused.isEmpty()) {
      note.append("; refused: ");
      refused.forEach((pod, why) -> note.append(pod).append(" (").append(why).append(") "));
    }
    return new NodeNotice(
        kubeName, !refused.isEmpty(), "Draining", "Drain", note.toString().trim());
  }

  /** {@code powering-on} or {@code power on} as {@code PoweringOn}. */
  static String camel(String text) {
    StringBuilder out = new StringBuilder();
    boolean up = true;
    for (char c : text.toCharArray()) {
      if (Character.isLetterOrDigit(c)) {
        out.append(up ? Character.toUpperCase(c) : c);
        up = false;
      } else {
        up = true;
      }
    }
    return out.toString();
  }
}
