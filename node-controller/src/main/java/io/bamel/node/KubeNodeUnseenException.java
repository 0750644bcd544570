package io.bamel.node;

import io.bamel.inventory.cluster.ClusterException;
import io.bamel.inventory.model.UntrustedText;

/**
 * A Kubernetes action not sent because the watched cache holds no node of that name, so its
 * identity cannot be checked ({@link KubeIdentity}): the node may have registered since the cache
 * last heard from the API server, or have been deleted. Nothing was sent; the action is deferred to
 * the next look at the node, which decides again from what the cache then shows.
 */
final class KubeNodeUnseenException extends ClusterException {

  private static final long serialVersionUID = 1L;

  KubeNodeUnseenException(Action action, String nodeName) {
    super(
        action.text()
            + " of Kubernetes node "
            + UntrustedText.escape(nodeName)
            + " deferred: the watched cache holds no such node, so its identity cannot be checked",
        null);
  }
}
