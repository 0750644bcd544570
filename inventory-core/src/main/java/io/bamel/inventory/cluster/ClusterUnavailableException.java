package io.bamel.inventory.cluster;

/**
 * The API server could not be asked: unreachable, timed out, or answering 5xx. The state of the
 * cluster is unknown; callers must not read this as "the node or pod does not exist".
 */
public final class ClusterUnavailableException extends ClusterException {

  private static final long serialVersionUID = 1L;

  /** The API server is unavailable, as {@code message} says. */
  public ClusterUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
