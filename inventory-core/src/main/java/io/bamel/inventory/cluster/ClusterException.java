package io.bamel.inventory.cluster;

/** The API server refused a request (other than by being unreachable): 403, 422 and the like. */
public class ClusterException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** A refusal described by {@code message}. */
  public ClusterException(String message, Throwable cause) {
    super(message, cause);
  }
}
