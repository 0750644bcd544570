package io.bamel.server;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.node.NodeControllerConfig;
import io.bamel.power.PowerDriverRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;

/**
 * What an embedding program (the demo, tests) gives {@link BamelServer} instead of building it from
 * the configuration; every field may be null for "from the configuration".
 *
 * @param cluster the Kubernetes cluster (the demo's simulated one)
 * @param drivers the power drivers
 * @param registry where metrics go
 * @param clock the clock of the controllers
 * @param nodeController node controller settings
 * @param poolInterval time between pool decisions
 */
public record Overrides(
    Cluster cluster,
    PowerDriverRegistry drivers,
    PrometheusRegistry registry,
    Clock clock,
    NodeControllerConfig nodeController,
    Duration poolInterval) {

  /** Nothing overridden. */
  public static final Overrides NONE = new Overrides(null, null, null, null, null, null);
}
