package io.bamel.server;

import io.bamel.inventory.api.security.TokenStore;
import io.bamel.power.PowerDriverRegistry;
import io.bamel.power.PowerMetrics;
import io.bamel.server.config.ConfigLoader;
import io.bamel.server.config.ServerConfig;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A {@code bamel server} in this JVM for the tests that need no BMC: the API and both controllers
 * on the given etcd, on 127.0.0.1, anonymous reads, no Kubernetes, and no power driver registered,
 * so nothing is contacted and every node's BMC read fails the same way while the node controller
 * still leads and reconciles.
 */
final class DriverlessServer {

  private DriverlessServer() {}

  /**
   * Starts instance {@code instance} on {@code port}, its configuration written in {@code dir};
   * {@code poolInterval} null keeps the pool controller's own.
   */
  static BamelServer start(
      Path dir, String instance, int port, List<String> etcdEndpoints, Duration poolInterval)
      throws Exception {
    Path config =
        Files.writeString(
            dir.resolve(instance + ".yaml"),
            String.join(
                "\n",
                "instance: " + instance,
                "components: [api, node-controller, pool-controller]",
                "http: {host: 127.0.0.1, port: " + port + "}",
                "etcd: {endpoints: [" + String.join(", ", etcdEndpoints) + "]}",
                "auth: {anonymousRead: true}",
                "kubernetes: {mode: none}",
                ""));
    ServerConfig cfg = ConfigLoader.load(config, Map.of(), Map.of());
    PowerDriverRegistry drivers =
        new PowerDriverRegistry(new PowerMetrics(new PrometheusRegistry()), Clock.systemUTC());
    return BamelServer.start(
        cfg,
        TokenStore.empty(),
        Map.of(),
        new Overrides(null, drivers, null, null, null, poolInterval));
  }
}
