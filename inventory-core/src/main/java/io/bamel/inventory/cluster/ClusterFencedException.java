package io.bamel.inventory.cluster;

/**
 * A Kubernetes write was not sent because this process no longer leads (or no longer owns the
 * node): a deposed leader must not cordon, evict, label or post events. Nothing reached the API
 * server.
 */
public final class ClusterFencedException extends ClusterException {

  private static final long serialVersionUID = 1L;

  /** A write refused by the fence, as {@code message} says. */
  public ClusterFencedException(String message) {
    super(message, null);
  }
}
