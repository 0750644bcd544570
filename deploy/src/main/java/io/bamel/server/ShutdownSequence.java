package io.bamel.server;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The order a {@link BamelServer} closes its parts in, whatever order they started in: first stop
 * taking requests, then stop the controllers (the node controller lets in-flight power actions
 * finish, bounded), then resign leadership, then release the connections the controllers used, the
 * cache, the etcd client, and last the embedded etcd. Within a stage, parts close in reverse order
 * of registration. Each close is logged ({@code shutdown: NAME closed}); a failure is logged
 * ({@code shutdown: closing NAME failed}) and the sequence goes on.
 */
final class ShutdownSequence {

  /** The stages, in the order they close. */
  enum Stage {
    /** The API or the health and metrics endpoints. */
    REQUESTS,
    /** The node and pool controllers. */
    CONTROLLERS,
    /** Leader elections: resigning hands the controllers to another process at once. */
    LEADERSHIP,
    /** What the controllers used: power drivers, the Kubernetes client. */
    CONTROLLER_CLIENTS,
    /** The inventory cache (its etcd watch). */
    CACHE,
    /** The etcd client. */
    ETCD_CLIENT,
    /** The embedded etcd process. */
    EMBEDDED_ETCD
  }

  private record Step(Stage stage, String name, AutoCloseable resource) {}

  private static final Logger LOG = LoggerFactory.getLogger(ShutdownSequence.class);

  private final List<Step> steps = new ArrayList<>();
  private boolean closed;

  /**
   * Registers {@code resource} to be closed in {@code stage}.
   *
   * @throws IllegalStateException when the sequence has already run (the server is stopping while
   *     it starts); {@code resource} is closed first
   */
  synchronized <T extends AutoCloseable> T add(Stage stage, String name, T resource) {
    if (closed) {
      close(new Step(stage, name, resource));
      throw new IllegalStateException("stopping: " + name + " not started");
    }
    steps.add(new Step(stage, name, resource));
    return resource;
  }

  /** Whether {@link #closeAll()} has run. */
  synchronized boolean closed() {
    return closed;
  }

  /** Closes everything registered, stage by stage; never throws; runs once. */
  synchronized void closeAll() {
    closed = true;
    List<Step> order = new ArrayList<>(steps);
    steps.clear();
    Collections.reverse(order);
    order.sort(Comparator.comparing(Step::stage));
    order.forEach(ShutdownSequence::close);
  }

  private static void close(Step step) {
    long start = System.nanoTime();
    try {
      step.resource().close();
      LOG.info(
          "shutdown: {} closed in {} ms", step.name(), (System.nanoTime() - start) / 1_000_000);
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      LOG.warn("shutdown: closing {} failed: {}", step.name(), e.toString());
    }
  }
}
