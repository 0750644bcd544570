package io.bamel.kube.testing;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * What the tests that play kubelets over simulated machines do for each machine: its node is
 * registered once the machine is on, and removed once it is off (as a node controller would remove
 * a node whose kubelet stopped); while the power is changing, nothing happens.
 */
public final class Kubelets {

  private Kubelets() {}

  /**
   * One pass for one machine: creates {@code node} if the machine is on and no node of its name
   * exists, deletes that node if the machine is off.
   */
  public static void pass(
      KubernetesClient client, Node node, boolean machineOn, boolean machineOff) {
    String name = node.getMetadata().getName();
    boolean registered = client.nodes().withName(name).get() != null;
    if (machineOn && !registered) {
      client.nodes().resource(node).create();
    } else if (machineOff && registered) {
      client.nodes().withName(name).delete();
    }
  }
}
