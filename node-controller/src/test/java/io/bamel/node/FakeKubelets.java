package io.bamel.node;

import io.bamel.kube.testing.KubeApiServer;
import io.bamel.kube.testing.KubeObjects;
import io.bamel.kube.testing.Kubelets;
import io.bamel.power.BmcPowerState;
import io.bamel.power.sim.SimulatedBmcFleet;
import io.bamel.power.sim.SimulatedSystem;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Plays the kubelets of the simulated machines: every 100 ms, a machine that is on and has no
 * Kubernetes node registers one (Ready at once), and a machine that is off has its node removed.
 * The node is named after the machine's id unless {@link #nodeName} says otherwise, and reports the
 * machine's SMBIOS system UUID ({@code status.nodeInfo.systemUUID}, as a kubelet reads it from the
 * firmware: the one its simulated BMC serves at {@code ComputerSystem.UUID}). Runs on its own
 * thread until closed; does nothing while paused or while the API server is down.
 */
final class FakeKubelets implements AutoCloseable {

  private final SimulatedBmcFleet fleet;
  private final KubernetesClient client;
  private volatile boolean paused;
  private final Map<String, String> names = new ConcurrentHashMap<>();
  private final Kubelets.Loop loop;

  FakeKubelets(SimulatedBmcFleet fleet, KubeApiServer api) {
    this.fleet = fleet;
    this.client = api.client();
    this.loop = Kubelets.every(Duration.ofMillis(100), "fake-kubelets", this::passOverFleet);
  }

  /** The kubelet of machine {@code systemId} registers as {@code nodeName}. */
  void nodeName(String systemId, String nodeName) {
    names.put(systemId, nodeName);
  }

  /** Stops registering nodes (machines that boot but never join). */
  void pause(boolean pause) {
    this.paused = pause;
  }

  private void passOverFleet() {
    for (SimulatedSystem system : fleet.systems()) {
      try {
        sync(system);
      } catch (KubernetesClientException e) {
        // the API server is down: try again later
      }
    }
  }

  private void sync(SimulatedSystem system) {
    if (paused) {
      return;
    }
    String name = names.getOrDefault(system.id(), system.id());
    Kubelets.pass(
        client,
        KubeObjects.node(name).systemUuid(SimulatedSystem.systemUuid(system.id())).build(),
        system.powerState() == BmcPowerState.ON,
        system.powerState() == BmcPowerState.OFF);
  }

  @Override
  public void close() {
    loop.close();
    client.close();
  }
}
