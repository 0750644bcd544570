package io.bamel.server;

import io.bamel.inventory.model.NodeTimeouts;
import io.bamel.node.NodeControllerConfig;
import io.bamel.node.ReadingsPolicy;
import io.bamel.server.config.ServerConfig;

/**
 * The node controller's settings as an operator gives them ({@code nodeController.*}) turned into
 * the {@link NodeControllerConfig} the controller runs with; what the settings do not name (the
 * poll interval, the jitter, the retry backoff) keeps {@link NodeControllerConfig#DEFAULTS}. Pure.
 */
final class NodeControllerSettingsMapping {

  private NodeControllerSettingsMapping() {}

  /** The controller configuration of {@code s} (already validated by the config loader). */
  static NodeControllerConfig config(ServerConfig.NodeControllerSettings s) {
    ServerConfig.NodeControllerSettings.Readings r = s.readings();
    return NodeControllerConfig.DEFAULTS
        .withConcurrency(s.workers(), s.bmcConcurrency())
        .withIntervals(s.syncInterval(), NodeControllerConfig.DEFAULTS.pollInterval())
        .withBmcCallTimeout(s.bmcCallTimeout())
        .withShutdownTimeout(s.shutdownTimeout())
        .withTimeouts(
            NodeTimeouts.of(
                s.powerOnTimeout(), s.joinTimeout(), s.drainTimeout(), s.powerOffTimeout()))
        .withReadingsInterval(r.interval())
        .withReadingsPolicy(
            new ReadingsPolicy(r.relativeTolerance(), r.absoluteWatts(), r.heartbeat()));
  }
}
