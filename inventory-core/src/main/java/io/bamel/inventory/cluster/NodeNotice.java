package io.bamel.inventory.cluster;

import java.util.Objects;

/**
 * What bamel wants to say about a Kubernetes node, as a Kubernetes Event on it ({@code
 * events.k8s.io/v1}): {@code kubectl describe node} shows it.
 *
 * @param nodeName the Kubernetes node it regards
 * @param warning whether it is a {@code Warning} (else {@code Normal})
 * @param reason a short UpperCamelCase reason ({@code PoweringOn}, {@code Draining})
 * @param action what bamel did or is doing ({@code PowerOn}, {@code Drain}, {@code Transition})
 * @param note a person's text, at most 1 kB as the API server requires (longer is cut)
 */
public record NodeNotice(
    String nodeName, boolean warning, String reason, String action, String note) {

  /** The longest note the API server accepts. */
  public static final int MAX_NOTE = 1024;

  /** Checks the names and cuts the note to {@link #MAX_NOTE} characters. */
  public NodeNotice {
    Objects.requireNonNull(nodeName, "nodeName");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(action, "action");
    note = note == null ? "" : note.length() > MAX_NOTE ? note.substring(0, MAX_NOTE) : note;
  }
}
