package io.bamel.node;

/**
 * What the state machine concludes from a {@link KubeView}, computed once per decision: every
 * Kubernetes-dependent step switches on this one value instead of testing the view's mode and node
 * ad hoc.
 */
public enum KubeVerdict {
  /** No Kubernetes integration: a node that is on is ready. */
  DISABLED,
  /**
   * The API server did not answer, or its node of that name is not provably this machine ({@link
   * KubeView.Mode#REFUSED}): never drain, evict or switch off what cannot be seen.
   */
  UNREACHABLE,
  /** The API server answered: there is no such node (nothing to drain; not joined yet). */
  ABSENT,
  /** The node is registered but not Ready. */
  NOT_READY,
  /** The node is registered and Ready. */
  READY;

  /** The verdict of {@code view}. */
  public static KubeVerdict of(KubeView view) {
    return switch (view.mode()) {
      case DISABLED -> DISABLED;
      // a node not provably this machine is treated as one that cannot be seen
      case UNREACHABLE, REFUSED -> UNREACHABLE;
      case ABSENT -> ABSENT;
      case PRESENT -> view.node().ready() ? READY : NOT_READY;
    };
  }

  /** Whether the Kubernetes node was seen (Ready or not), so its pods are known. */
  public boolean seen() {
    return this == NOT_READY || this == READY;
  }
}
