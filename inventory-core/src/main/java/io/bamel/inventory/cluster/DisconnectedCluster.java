package io.bamel.inventory.cluster;

import java.util.List;

/**
 * No Kubernetes integration: there are no nodes or pods, writes do nothing, and the cluster is
 * never reachable (a disabled, empty {@link FixedCluster}). The node controller then treats a node
 * whose BMC reports on as ready.
 */
public final class DisconnectedCluster extends FixedCluster {

  /** The one instance. */
  public static final DisconnectedCluster INSTANCE = new DisconnectedCluster();

  private DisconnectedCluster() {
    super(false, List.of(), List.of(), "no Kubernetes integration");
  }
}
