package io.bamel.server;

import io.bamel.inventory.api.ApiOptions;
import io.bamel.inventory.api.InventoryApi;
import io.bamel.inventory.api.TokenStore;
import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.leader.LeaderElection;
import io.bamel.inventory.metrics.MetricsEndpoint;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.node.NodeController;
import io.bamel.node.NodeControllerConfig;
import io.bamel.pool.PoolController;
import io.bamel.pool.PrometheusHttp;
import io.bamel.power.Drivers;
import io.bamel.power.PowerDriverRegistry;
import io.bamel.power.credentials.CredentialStore;
import io.bamel.server.config.ServerConfig;
import io.etcd.jetcd.Client;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code bamel server} process: etcd (embedded or configured), the inventory store and cache,
 * the API (or just health and metrics), and the node and pool controllers, each running only while
 * this process leads it. {@link #close()} shuts down in order: stop taking requests, let in-flight
 * power actions finish (bounded), resign leadership, close etcd.
 */
public final class BamelServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(BamelServer.class);
  private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(60);

  private final Deque<AutoCloseable> resources = new ArrayDeque<>();
  private final Set<Component> components;
  private final String instance;
  private EmbeddedEtcd embedded;
  private Client client;
  private EtcdInventory store;
  private InventoryCache cache;
  private InventoryApi api;
  private OpsServer ops;
  private NodeController nodeController;
  private PoolController poolController;
  private final PrometheusRegistry registry;
  private final List<String> endpoints;

  private BamelServer(ServerConfig config, Overrides overrides) {
    this.components = EnumSet.noneOf(Component.class);
    config.components().forEach(c -> components.add(Component.parse(c)));
    this.instance = config.instance().isEmpty() ? Instances.defaultName() : config.instance();
    this.registry = overrides.registry() != null ? overrides.registry() : new PrometheusRegistry();
    if (config.embeddedEtcd()) {
      embedded = EmbeddedEtcd.start(Path.of(config.etcd().dataDir()));
      resources.push(embedded);
      endpoints = List.of(embedded.endpoint());
    } else {
      endpoints = config.etcd().endpoints();
    }
  }

  /**
   * Starts a server.
   *
   * @param tokens the API tokens (ignored without the API component)
   */
  public static BamelServer start(
      ServerConfig config, TokenStore tokens, Map<String, String> env, Overrides overrides)
      throws IOException, InterruptedException {
    BamelServer server = new BamelServer(config, overrides);
    try {
      server.run(config, tokens, env, overrides);
      return server;
    } catch (IOException | InterruptedException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  private void run(ServerConfig config, TokenStore tokens, Map<String, String> env, Overrides o)
      throws IOException, InterruptedException {
    Clock clock = o.clock() != null ? o.clock() : Clock.systemUTC();
    client = EtcdConnection.connect(config.etcd(), endpoints);
    resources.push(client::close);
    store = new EtcdInventory(client);
    cache = new InventoryCache(client).start();
    resources.push(cache);
    if (!cache.awaitSynced(SYNC_TIMEOUT)) {
      LOG.warn(
          "inventory cache not synced after {} s; serving as not ready", SYNC_TIMEOUT.toSeconds());
    }
    if (components.contains(Component.API)) {
      api =
          InventoryApi.create(
              store,
              cache,
              tokens,
              ApiOptions.DEFAULTS
                  .withMaxBodyBytes(config.http().maxBodyBytes())
                  .withAnonymousRead(config.auth().anonymousRead()),
              registry);
      api.start(config.http().host(), config.http().port());
      resources.push(api);
    } else {
      ops =
          new OpsServer(
              config.http().host(),
              config.http().port(),
              cache,
              new MetricsEndpoint(registry),
              tokens,
              config.auth().anonymousRead());
      resources.push(ops);
    }
    boolean controllers =
        components.contains(Component.NODE_CONTROLLER)
            || components.contains(Component.POOL_CONTROLLER);
    if (!controllers) {
      return;
    }
    Cluster cluster =
        o.cluster() != null ? o.cluster() : ClusterFactory.create(config.kubernetes(), env);
    resources.push(cluster);
    if (components.contains(Component.NODE_CONTROLLER)) {
      PowerDriverRegistry drivers =
          o.drivers() != null
              ? o.drivers()
              : Drivers.standard(
                  new CredentialStore(Path.of(config.bmc().credentialsDir())), registry);
      resources.push(drivers);
      LeaderElection election = election(NodeController.COMPONENT);
      NodeControllerConfig nc =
          o.nodeController() != null
              ? o.nodeController()
              : NodeControllerConfig.DEFAULTS
                  .withConcurrency(
                      config.nodeController().workers(), config.nodeController().bmcConcurrency())
                  .withIntervals(
                      config.nodeController().syncInterval(),
                      NodeControllerConfig.DEFAULTS.pollInterval())
                  .withBmcCallTimeout(config.nodeController().bmcCallTimeout());
      nodeController =
          new NodeController(nc, cache, store, drivers, cluster, election, registry, clock).start();
      resources.push(nodeController);
    }
    if (components.contains(Component.POOL_CONTROLLER)) {
      LeaderElection election = election(Component.POOL_CONTROLLER.label());
      PoolController.Builder builder =
          PoolController.builder()
              .store(store)
              .cache(cache)
              .cluster(cluster)
              .election(election)
              .registry(registry)
              .clock(clock)
              .interval(
                  o.poolInterval() != null ? o.poolInterval() : config.poolController().interval());
      if (!config.poolController().prometheusUrl().isEmpty()) {
        builder.prometheus(
            new PrometheusHttp(
                java.net.URI.create(config.poolController().prometheusUrl()),
                Duration.ofSeconds(10)));
      }
      poolController = builder.build().start();
      resources.push(poolController);
    }
  }

  private LeaderElection election(String component) {
    LeaderElection election =
        new LeaderElection(client, component, instance, LeaderElection.Options.DEFAULTS).start();
    // Resigned after the controller using it has stopped (resources close in reverse order).
    resources.push(election);
    return election;
  }

  /** The port the API (or the health and metrics endpoints) listens on. */
  public int port() {
    return api != null ? api.port() : ops.port();
  }

  /** The etcd endpoints in use. */
  public List<String> etcdEndpoints() {
    return endpoints;
  }

  /** This process's name in leader election. */
  public String instance() {
    return instance;
  }

  /** The store (for the demo's initial inventory). */
  public EtcdInventory store() {
    return store;
  }

  /** The cache. */
  public InventoryCache cache() {
    return cache;
  }

  /** The metrics registry. */
  public PrometheusRegistry registry() {
    return registry;
  }

  /** Shuts down in order (reverse of start-up); never throws. */
  @Override
  public synchronized void close() {
    while (!resources.isEmpty()) {
      AutoCloseable r = resources.pop();
      try {
        r.close();
      } catch (Exception e) {
        LOG.warn("shutdown: closing {} failed: {}", r.getClass().getSimpleName(), e.toString());
      }
    }
    LOG.info("bamel server stopped");
  }
}
