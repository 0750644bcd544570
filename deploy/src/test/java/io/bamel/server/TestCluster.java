package io.bamel.server;

import io.bamel.kube.testing.KubeApiServer;
import io.bamel.kube.testing.KubeObjects;
import io.bamel.kube.testing.Kubelets;
import io.bamel.power.BmcPowerState;
import io.bamel.power.sim.SimulatedBmcFleet;
import io.bamel.power.sim.SimulatedSystem;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Plays the kubelets and the scheduler of a cluster over the simulated machines, against the
 * fabric8 mock API server: a machine that is on registers its node (Ready, 16 CPUs) and a machine
 * that is off loses it; pending pods are bound to Ready, schedulable nodes with room, and marked
 * Unschedulable otherwise. Runs on its own thread until closed.
 */
final class TestCluster implements AutoCloseable {

  private static final String NAMESPACE = "default";
  private final SimulatedBmcFleet fleet;
  private final KubernetesClient client;
  private final Kubelets.Loop loop;

  TestCluster(SimulatedBmcFleet fleet, KubeApiServer api) {
    this.fleet = fleet;
    this.client = api.client();
    this.loop = Kubelets.every(Duration.ofMillis(200), "test-cluster", this::pass);
  }

  /** Creates {@code count} pods of {@code cpu} CPUs each that select {@code pool}. */
  void createPods(String pool, int count, int cpu) {
    for (int i = 0; i < count; i++) {
      Pod pod =
          KubeObjects.pod(pool + "-work-" + i)
              .namespace(NAMESPACE)
              .owner("ReplicaSet", pool + "-work", "rs-" + pool)
              .pool(pool)
              .container("work", "busybox")
              .requests("cpu", cpu)
              .pending()
              .build();
      client.pods().inNamespace(NAMESPACE).resource(pod).create();
    }
  }

  /** Deletes every pod (the load is gone). */
  void deletePods() {
    client.pods().inNamespace(NAMESPACE).delete();
  }

  /** Nodes and pods in one line each, for failure reports. */
  String describe() {
    StringBuilder sb = new StringBuilder();
    for (Node n : client.nodes().list().getItems()) {
      sb.append("node ")
          .append(n.getMetadata().getName())
          .append(" labels=")
          .append(n.getMetadata().getLabels())
          .append(" unschedulable=")
          .append(n.getSpec() == null ? null : n.getSpec().getUnschedulable())
          .append('\n');
    }
    for (Pod p : client.pods().inNamespace(NAMESPACE).list().getItems()) {
      sb.append("pod ")
          .append(p.getMetadata().getName())
          .append(" on=")
          .append(p.getSpec().getNodeName())
          .append('\n');
    }
    return sb.toString();
  }

  /** How many pods run. */
  long runningPods() {
    return client.pods().inNamespace(NAMESPACE).list().getItems().stream()
        .filter(p -> p.getSpec().getNodeName() != null)
        .count();
  }

  /** Each kubelet's pass, then the scheduler's (an API server failure ends it: next pass). */
  private void pass() {
    for (SimulatedSystem system : fleet.systems()) {
      kubelet(system);
    }
    schedule();
  }

  private void kubelet(SimulatedSystem system) {
    Kubelets.pass(
        client,
        KubeObjects.node(system.id())
            .systemUuid(SimulatedSystem.systemUuid(system.id()))
            .allocatable("cpu", "16", "memory", "64Gi")
            .build(),
        system.powerState() == BmcPowerState.ON,
        system.powerState() == BmcPowerState.OFF);
  }

  private void schedule() {
    List<Node> nodes = client.nodes().list().getItems();
    List<Pod> pods = client.pods().inNamespace(NAMESPACE).list().getItems();
    Map<String, BigDecimal> used = new HashMap<>();
    for (Pod p : pods) {
      if (p.getSpec().getNodeName() != null) {
        used.merge(p.getSpec().getNodeName(), cpu(p), BigDecimal::add);
      }
    }
    for (Pod pod : pods) {
      if (pod.getSpec().getNodeName() != null) {
        if (nodes.stream()
            .noneMatch(n -> n.getMetadata().getName().equals(pod.getSpec().getNodeName()))) {
          // Its node is gone: the ReplicaSet replaces it with a pending pod.
          client.pods().inNamespace(NAMESPACE).withName(pod.getMetadata().getName()).delete();
        }
        continue;
      }
      for (Node node : nodes) {
        String name = node.getMetadata().getName();
        boolean schedulable =
            !Boolean.TRUE.equals(node.getSpec() == null ? null : node.getSpec().getUnschedulable());
        boolean pooled =
            pod.getSpec()
                .getNodeSelector()
                .get("bamel.io/pool")
                .equals(
                    node.getMetadata().getLabels() == null
                        ? null
                        : node.getMetadata().getLabels().get("bamel.io/pool"));
        BigDecimal room = new BigDecimal("16").subtract(used.getOrDefault(name, BigDecimal.ZERO));
        if (schedulable && pooled && room.compareTo(cpu(pod)) >= 0) {
          pod.getSpec().setNodeName(name);
          pod.getStatus().setPhase("Running");
          pod.getStatus().getConditions().get(0).setStatus("True");
          pod.getStatus().getConditions().get(0).setReason(null);
          client.pods().inNamespace(NAMESPACE).resource(pod).update();
          used.merge(name, cpu(pod), BigDecimal::add);
          break;
        }
      }
    }
  }

  private static BigDecimal cpu(Pod pod) {
    return pod.getSpec()
        .getContainers()
        .get(0)
        .getResources()
        .getRequests()
        .get("cpu")
        .getNumericalAmount();
  }

  @Override
  public void close() {
    loop.close();
    client.close();
  }
}
