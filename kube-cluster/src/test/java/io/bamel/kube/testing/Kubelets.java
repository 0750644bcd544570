package io.bamel.kube.testing;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;

/**
 * What the tests that play kubelets over simulated machines do: for each machine, its node is
 * registered once the machine is on and removed once it is off (as a node controller would remove a
 * node whose kubelet stopped), while the power is changing nothing happens; and they do it in
 * passes on a thread of their own until closed.
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

  /**
   * Runs {@code pass} on a daemon thread named {@code name}, pausing {@code pause} after each,
   * until closed; a pass the API server fails ({@link KubernetesClientException}) is left for the
   * next.
   */
  public static Loop every(Duration pause, String name, Runnable pass) {
    return new Loop(pause, name, pass);
  }

  /**
   * The thread of {@link #every}; closing it stops it, waiting up to 2 s for the pass under way.
   */
  public static final class Loop implements AutoCloseable {
    private final Thread thread;
    private volatile boolean running = true;

    private Loop(Duration pause, String name, Runnable pass) {
      thread =
          new Thread(
              () -> {
                while (running) {
                  try {
                    pass.run();
                  } catch (KubernetesClientException e) {
                    // the API server is down or hiccuped: next pass
                  }
                  try {
                    Thread.sleep(pause.toMillis());
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              },
              name);
      thread.setDaemon(true);
      thread.start();
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
    }
  }
}
