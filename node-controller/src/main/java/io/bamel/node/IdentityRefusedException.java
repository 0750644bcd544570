package io.bamel.node;

/**
 * A Kubernetes action refused because the Kubernetes node is not provably the machine of the
 * inventory node ({@link KubeIdentity}): nothing was sent to the API server.
 */
final class IdentityRefusedException extends RuntimeException {

  private final transient KubeIdentity.Verdict verdict;

  IdentityRefusedException(Action action, KubeIdentity.Verdict verdict) {
    super(action.text() + " refused: " + verdict.detail(), null, false, false);
    this.verdict = verdict;
  }

  /** Why. */
  KubeIdentity.Verdict verdict() {
    return verdict;
  }
}
