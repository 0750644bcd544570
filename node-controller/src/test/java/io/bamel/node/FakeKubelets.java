package io.bamel.node;

import io.bamel.inventory.testing.KubeApiServer;
import io.bamel.power.PowerState;
import io.bamel.power.sim.SimulatedBmcFleet;
import io.bamel.power.sim.SimulatedSystem;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * Plays the kubelets of the simulated machines: a machine that is on registers its Kubernetes node
 * (Ready) after {@code bootDelay}; a machine that is off has its node removed. Runs on its own
 * thread until closed; does nothing while the API server is down.
 */
final class FakeKubelets implements AutoCloseable {

  private final SimulatedBmcFleet fleet;
  private final KubernetesClient client;
  private final Thread thread;
  private volatile boolean running = true;
  private volatile boolean paused;

  FakeKubelets(SimulatedBmcFleet fleet, KubeApiServer api) {
    this.fleet = fleet;
    this.client = api.client();
    this.thread = new Thread(this::run, "fake-kubelets");
    thread.setDaemon(true);
    thread.start();
  }

  /** Stops registering nodes (machines that boot but never join). */
  void pause(boolean pause) {
    this.paused = pause;
  }

  private void run() {
    while (running) {
      for (SimulatedSystem system : fleet.systems()) {
        try {
          sync(system);
        } catch (KubernetesClientException e) {
          // the API server is down: try again later
        }
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void sync(SimulatedSystem system) {
    if (paused) {
      return;
    }
    var existing = client.nodes().withName(system.id()).get();
    if (system.powerState() == PowerState.ON && existing == null) {
      client
          .nodes()
          .resource(
              new NodeBuilder()
                  .withNewMetadata()
                  .withName(system.id())
                  .endMetadata()
                  .withNewStatus()
                  .addNewCondition()
                  .withType("Ready")
                  .withStatus("True")
                  .endCondition()
                  .endStatus()
                  .build())
          .create();
    } else if (system.powerState() == PowerState.OFF && existing != null) {
      client.nodes().withName(system.id()).delete();
    }
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
    try {
      thread.join(2_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    client.close();
  }
}
