package io.bamel.pool.simulate;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.PodRef;
import io.bamel.node.KubeView;
import io.bamel.pool.Resources;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The simulated cluster as Kubernetes' objects, the shapes the controllers read in production: a
 * server's Kubernetes node, the pods bound to it, and what the node controller sees of them. Pure.
 */
final class SimKube {

  /** The namespace of every simulated pod. */
  static final String NAMESPACE = "sim";

  private SimKube() {}

  /** Resources in Kubernetes' names and base units. */
  static Map<String, BigDecimal> quantities(Resources r) {
    Map<String, BigDecimal> out = new HashMap<>();
    r.amounts()
        .forEach(
            (k, v) ->
                out.put(
                    k.equals("gpu") ? "nvidia.com/gpu" : k,
                    k.equals("memory")
                        ? BigDecimal.valueOf(Math.round(v))
                        : BigDecimal.valueOf(v)));
    return out;
  }

  /** The Kubernetes node of {@code s} (registered once it joined): Ready, cordon, labels. */
  static KubeNode node(SimServer s) {
    SimMachine m = s.machine();
    return new KubeNode(
        s.id(), m.kubeReady(), m.cordoned(), m.labels(), Map.of(), quantities(s.capacity()));
  }

  /** The reference of pod {@code name}. */
  static PodRef ref(String name) {
    return new PodRef(NAMESPACE, name);
  }

  /**
   * What the node controller sees of {@code s}'s Kubernetes node: absent before its first join,
   * else the node with ({@code withPods}) the pods on it, bound and terminating alike.
   */
  static KubeView view(SimServer s, boolean withPods) {
    if (!s.machine().registered()) {
      return KubeView.ABSENT;
    }
    List<KubePod> pods = new ArrayList<>();
    if (withPods) {
      for (SimPod p : s.pods()) {
        pods.add(running(p.name(), p.requests(), s));
      }
      for (SimServer.Leaving l : s.leaving()) {
        pods.add(running(l.pod().name(), l.requests(), s));
      }
    }
    return KubeView.present(node(s), pods, Map.of());
  }

  /** A workload pod (a ReplicaSet's) of pool {@code s.pool()} running on {@code s}. */
  private static KubePod running(String name, Resources requests, SimServer s) {
    Map<String, String> selector = Map.of(Cluster.POOL_LABEL, s.pool());
    return new KubePod(
        ref(name),
        s.id(),
        "Running",
        quantities(requests),
        true,
        null,
        "ReplicaSet",
        Map.of(),
        Map.of(),
        selector,
        Set.of(s.pool()),
        List.of());
  }
}
