package io.bamel.server;

import io.bamel.dcim.netbox.NetBoxSettings;
import io.bamel.dcim.netbox.NetBoxSource;
import io.bamel.inventory.api.ApiOptions;
import io.bamel.inventory.api.ApiTls;
import io.bamel.inventory.api.InventoryApi;
import io.bamel.inventory.api.security.TokenStore;
import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.connection.EtcdReconnector;
import io.bamel.inventory.leader.LeaderElection;
import io.bamel.inventory.maintenance.DefragRule;
import io.bamel.inventory.maintenance.EtcdCompactor;
import io.bamel.inventory.maintenance.EtcdDefragmenter;
import io.bamel.inventory.maintenance.EtcdSpaceMonitor;
import io.bamel.inventory.metrics.BuildInfo;
import io.bamel.inventory.metrics.LeaderGatedRegistry;
import io.bamel.inventory.metrics.Leaderships;
import io.bamel.inventory.metrics.MetricsEndpoint;
import io.bamel.inventory.sharding.ReplicaRegistry;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.node.NodeController;
import io.bamel.node.NodeControllerConfig;
import io.bamel.pool.PoolController;
import io.bamel.pool.PoolStatusWrites;
import io.bamel.pool.PrometheusHttp;
import io.bamel.power.Drivers;
import io.bamel.power.PowerDriverRegistry;
import io.bamel.power.credentials.CredentialStore;
import io.bamel.power.ipmi.IpmiImplementation;
import io.bamel.power.wol.PowerOffCommands;
import io.bamel.server.config.ConfigException;
import io.bamel.server.config.ServerConfig;
import io.etcd.jetcd.Client;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code bamel server} process: etcd (embedded or configured), the inventory store and cache,
 * the API (or just health and metrics), and the node and pool controllers, each running only while
 * this process leads it. {@link #close()} shuts down in the order of {@link ShutdownSequence}: stop
 * taking requests, stop the controllers (in-flight power actions finish, bounded), resign
 * leadership, close the etcd client, stop the embedded etcd.
 */
public final class BamelServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(BamelServer.class);
  private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration SPACE_CHECK_INTERVAL = Duration.ofSeconds(30);
  private static final long ETCD_DEFAULT_QUOTA = 2L * 1024 * 1024 * 1024;

  /** The election whose leader compacts etcd. */
  static final String MAINTENANCE = "etcd-maintenance";

  private final ShutdownSequence shutdown = new ShutdownSequence();
  private final ServerConfig config;
  private final Overrides overrides;
  private final Set<Component> components;
  private final String instance;
  private Client client;
  private EtcdInventory store;
  private InventoryCache cache;
  private InventoryApi api;
  private OpsServer ops;
  private final PrometheusRegistry registry;
  private final Leaderships leaderships;
  private final Map<String, LeaderElection> elections = new ConcurrentHashMap<>();
  private volatile List<String> endpoints = List.of();
  private volatile EtcdSpaceMonitor space;
  private volatile CredentialStore credentialStore;
  private volatile EtcdCertificates.TlsFiles embeddedTls;

  private BamelServer(ServerConfig config, Overrides overrides) {
    this.config = config;
    this.overrides = overrides;
    this.components = EnumSet.noneOf(Component.class);
    config.components().forEach(c -> components.add(Component.parse(c)));
    this.instance = config.instance().isEmpty() ? Instances.defaultName() : config.instance();
    this.registry =
        overrides.registry() != null ? overrides.registry() : LeaderGatedRegistry.create();
    if (registry instanceof LeaderGatedRegistry gated) {
      this.leaderships = gated.leaderships();
    } else {
      // a registry of the caller's: bamel_leader is exported, every gauge by every process
      this.leaderships = new Leaderships();
      leaderships.register(registry);
    }
    BuildInfo.register(registry);
  }

  /**
   * A server that has started nothing yet: a caller that must be able to stop it while it starts (a
   * JVM shutdown hook) holds it before calling {@link #start(TokenStore, Map)}.
   */
  public static BamelServer prepare(ServerConfig config, Overrides overrides) {
    return new BamelServer(config, overrides);
  }

  /**
   * Starts a server.
   *
   * @param tokens the API tokens (ignored without the API component)
   */
  public static BamelServer start(
      ServerConfig config, TokenStore tokens, Map<String, String> env, Overrides overrides)
      throws IOException, InterruptedException {
    return prepare(config, overrides).start(tokens, env);
  }

  /**
   * Starts what {@link #prepare} described; on failure closes what it started and rethrows. A
   * {@link #close()} while starting stops what has started and makes this throw.
   *
   * @param tokens the API tokens (ignored without the API component)
   */
  public BamelServer start(TokenStore tokens, Map<String, String> env)
      throws IOException, InterruptedException {
    try {
      run(tokens, env, overrides);
      return this;
    } catch (IOException | InterruptedException | RuntimeException e) {
      close();
      throw e;
    }
  }

  private void run(TokenStore tokens, Map<String, String> env, Overrides o)
      throws IOException, InterruptedException {
    Clock clock = o.clock() != null ? o.clock() : Clock.systemUTC();
    ServerConfig.Etcd etcd = config.etcd();
    if (config.embeddedEtcd()) {
      EmbeddedEtcd embedded =
          shutdown.add(
              ShutdownSequence.Stage.EMBEDDED_ETCD,
              "embedded etcd",
              EmbeddedEtcd.prepare(Path.of(config.etcd().dataDir())));
      embedded.start();
      endpoints = List.of(embedded.endpoint());
      embeddedTls = embedded.tls();
      // The embedded etcd takes only clients with its certificate: bamel's own client uses the
      // same TLS path as for an external https:// etcd.
      etcd = embedded.clientSettings(config.etcd());
    } else {
      endpoints = config.etcd().endpoints();
    }
    client =
        shutdown.add(
            ShutdownSequence.Stage.ETCD_CLIENT,
            "etcd client",
            EtcdConnection.connect(etcd, endpoints));
    // After an outage: reconnect as soon as an endpoint answers, and say when etcd is back.
    shutdown.add(
        ShutdownSequence.Stage.ETCD_CLIENT,
        "etcd reconnects",
        new EtcdReconnector(client, endpoints).start());
    // Before the store and the cache: both leave placeholder serials unindexed.
    io.bamel.inventory.model.PlaceholderSerials.configure(config.sync().placeholderSerials());
    store =
        new EtcdInventory(
            client,
            EtcdInventory.Options.DEFAULTS.withEventLimit(config.storage().eventsPerNode()));
    startStorageMaintenance();
    cache =
        shutdown.add(
            ShutdownSequence.Stage.CACHE, "inventory cache", new InventoryCache(client).start());
    boolean synced = cache.awaitSynced(SYNC_TIMEOUT);
    if (!synced) {
      LOG.warn(
          "inventory cache not synced after {} s; serving as not ready", SYNC_TIMEOUT.toSeconds());
    }
    if (components.contains(Component.API)) {
      // Nodes written before the unique-value index existed (or by hand) get their index keys
      // (idempotent), before the API serves writes; from the synced cache, not a second read.
      int indexed = synced ? store.rebuildUniqueIndex(cache) : store.rebuildUniqueIndex();
      if (indexed > 0) {
        LOG.info("unique index: wrote {} missing serial/mac/mgmt index keys", indexed);
      }
    }
    PowerOffCommands commands = powerOffCommands();
    if (components.contains(Component.API)) {
      api = InventoryApi.create(store, cache, tokens, apiOptions(commands), registry);
      api.start(config.http().host(), config.http().port());
      shutdown.add(ShutdownSequence.Stage.REQUESTS, "api", api);
      if (config.netbox().enabled()) {
        startNetBox(commands, clock);
      }
    } else {
      ops =
          shutdown.add(
              ShutdownSequence.Stage.REQUESTS,
              "health and metrics endpoints",
              new OpsServer(
                  config.http().host(),
                  config.http().port(),
                  httpConnections(),
                  cache,
                  new MetricsEndpoint(registry),
                  tokens,
                  config.auth().anonymousRead()));
    }
    boolean controllers =
        components.contains(Component.NODE_CONTROLLER)
            || components.contains(Component.POOL_CONTROLLER);
    if (!controllers) {
      return;
    }
    Cluster cluster =
        shutdown.add(
            ShutdownSequence.Stage.CONTROLLER_CLIENTS,
            "kubernetes client",
            o.cluster() != null ? o.cluster() : ClusterFactory.create(config.kubernetes(), env));
    if (components.contains(Component.NODE_CONTROLLER)) {
      PowerDriverRegistry drivers =
          shutdown.add(
              ShutdownSequence.Stage.CONTROLLER_CLIENTS,
              "power drivers",
              o.drivers() != null
                  ? o.drivers()
                  : Drivers.standard(
                      credentials(),
                      commands,
                      registry,
                      IpmiImplementation.valueOf(
                          config.bmc().ipmi().implementation().toUpperCase(Locale.ROOT))));
      NodeControllerConfig nc =
          o.nodeController() != null
              ? o.nodeController()
              : NodeControllerSettingsMapping.config(config.nodeController());
      NodeController.Builder node =
          NodeController.builder()
              .config(nc)
              .cache(cache)
              .store(store)
              .drivers(drivers)
              .cluster(cluster)
              .registry(registry)
              .clock(clock);
      if (config.nodeController().sharded()) {
        // Every replica acts on its share; the registry leaves the ring after the controller.
        ReplicaRegistry replicas =
            shutdown
                .add(
                    ShutdownSequence.Stage.LEADERSHIP,
                    "hash ring membership",
                    new ReplicaRegistry(client, instance, ReplicaRegistry.Options.DEFAULTS))
                .start();
        leaderships.add(NodeController.COMPONENT, () -> replicas.fence().isPresent());
        node.replicas(replicas);
      } else {
        node.election(election(NodeController.COMPONENT));
      }
      shutdown.add(
          ShutdownSequence.Stage.CONTROLLERS, NodeController.COMPONENT, node.build().start());
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
                  o.poolInterval() != null ? o.poolInterval() : config.poolController().interval())
              .statusWrites(
                  new PoolStatusWrites(
                      config.poolController().statusUtilizationTolerance(),
                      config.poolController().statusMaxAge()));
      if (!config.poolController().prometheusUrl().isEmpty()) {
        builder.prometheus(
            new PrometheusHttp(
                java.net.URI.create(config.poolController().prometheusUrl()),
                Duration.ofSeconds(10)));
      }
      shutdown.add(
          ShutdownSequence.Stage.CONTROLLERS,
          Component.POOL_CONTROLLER.label(),
          builder.build().start());
    }
  }

  /**
   * NetBox as a DCIM source (docs/dcim.md): every process serving the API takes NetBox's webhooks
   * and campaigns for {@code netbox-sync}; its leader pulls NetBox and reports back, its writes
   * fenced by that leadership. Stopped with the controllers, before leadership is resigned.
   */
  private void startNetBox(PowerOffCommands commands, Clock clock) {
    NetBoxSettings settings = NetBoxConfig.settings(config.netbox(), commands.names());
    LeaderElection election = election(NetBoxSource.COMPONENT);
    NetBoxSource source =
        shutdown.add(
            ShutdownSequence.Stage.CONTROLLERS,
            "netbox source",
            new NetBoxSource(
                    settings,
                    NetBoxConfig.client(settings, clock),
                    store,
                    cache,
                    election,
                    registry,
                    clock)
                .start());
    api.netbox(source);
    LOG.info(
        "netbox: pulling {} every {} s as the leader of {} (scope {}, prune {}, webhooks {},"
            + " report-back {})",
        settings.url(),
        settings.interval().toSeconds(),
        NetBoxSource.COMPONENT,
        settings.scope().scopeName(),
        settings.prune() ? "on" : "off",
        settings.webhookSecret() == null ? "off: no netbox.webhookSecretFile" : "on",
        settings.reportBack().enabled() ? "on" : "off");
  }

  /**
   * etcd stays bounded: the leader of {@code etcd-maintenance} compacts etcd's history, and every
   * process watches etcd's database size and alarms (metrics, a WARN, the readiness detail).
   */
  private void startStorageMaintenance() {
    EtcdCompactor compactor =
        shutdown.add(
            ShutdownSequence.Stage.CONTROLLERS,
            "etcd compactor",
            new EtcdCompactor(
                client.getKVClient(),
                config.storage().compactionInterval(),
                config.etcd().timeout()));
    LeaderElection maintenance = election(MAINTENANCE);
    maintenance.addListener(compactor);
    ServerConfig.Storage.Defrag d = config.storage().defrag();
    if (d.enabled()) {
      EtcdDefragmenter defragmenter =
          shutdown.add(
              ShutdownSequence.Stage.CONTROLLERS,
              "etcd defragmenter",
              new EtcdDefragmenter(
                  client.getMaintenanceClient(),
                  endpoints,
                  new DefragRule(
                      d.minDbSizeBytes(),
                      d.maxDbSizeBytes(),
                      d.minFreeRatio(),
                      d.growthRatio(),
                      d.minInterval()),
                  d.checkInterval(),
                  config.etcd().timeout(),
                  Clock.systemUTC()));
      maintenance.addListener(defragmenter);
    }
    long quota = config.storage().quotaBackendBytes();
    if (quota == 0) {
      quota = config.embeddedEtcd() ? EmbeddedEtcd.QUOTA_BACKEND_BYTES : ETCD_DEFAULT_QUOTA;
    }
    space =
        shutdown.add(
            ShutdownSequence.Stage.CONTROLLERS,
            "etcd space monitor",
            new EtcdSpaceMonitor(
                    client.getMaintenanceClient(), endpoints, quota, config.etcd().timeout())
                .start(SPACE_CHECK_INTERVAL));
    space.register(registry);
  }

  private ApiOptions apiOptions(PowerOffCommands commands) {
    ServerConfig.Http http = config.http();
    ApiOptions options =
        ApiOptions.DEFAULTS
            .withMaxBodyBytes(http.maxBodyBytes())
            .withAnonymousRead(config.auth().anonymousRead())
            .powerOffCommands(commands.names())
            .connections(httpConnections())
            .withReadinessNotes(this::readinessNotes);
    return options;
  }

  /**
   * The listener settings of {@code http}: the API and the health and metrics endpoints of a
   * process without the API are served alike (TLS, client certificates, connection limit).
   */
  private ApiOptions.Connections httpConnections() {
    ServerConfig.Http http = config.http();
    ApiOptions options = ApiOptions.DEFAULTS.maxConnections(http.maxConnections());
    if (http.tls().enabled()) {
      options =
          options.tls(
              new ApiTls(
                  Path.of(http.tls().certFile()),
                  Path.of(http.tls().keyFile()),
                  http.tls().clientCaFile().isEmpty() ? null : Path.of(http.tls().clientCaFile())));
    }
    return options.connections();
  }

  /** What {@code /readyz} lists as warnings: etcd's space, credentials without an allow-list. */
  private List<String> readinessNotes() {
    List<String> notes = new java.util.ArrayList<>();
    if (space != null && space.space().problem() != null) {
      notes.add(space.space().problem());
    }
    CredentialStore store = credentialStore;
    List<String> open =
        store == null || store.requiresAllowList() ? List.of() : store.namesWithoutAllowList();
    if (!open.isEmpty()) {
      notes.add(
          "BMC credentials without an allowed-hosts file (sent to any https address a bmc-scope"
              + " token sets): "
              + String.join(", ", open)
              + "; see docs/security.md");
    }
    return notes;
  }

  /** The BMC credentials, warning about credentials that may be sent anywhere. */
  private CredentialStore credentials() {
    CredentialStore store =
        new CredentialStore(
            Path.of(config.bmc().credentialsDir()), config.bmc().requireAllowList());
    credentialStore = store;
    List<String> open = store.requiresAllowList() ? List.of() : store.namesWithoutAllowList();
    if (!open.isEmpty()) {
      LOG.warn(
          "BMC credentials without an allowed-hosts file may be sent to any https BMC address a"
              + " bmc-scope token writes: {} (add allowed-hosts, then set bmc.requireAllowList:"
              + " true; see docs/security.md)",
          open);
    }
    return store;
  }

  /** The Wake-on-LAN power-off commands of {@code wakeOnLan.powerOffCommandsFile}. */
  private PowerOffCommands powerOffCommands() throws IOException {
    String file = config.wakeOnLan().powerOffCommandsFile();
    if (file.isEmpty()) {
      return PowerOffCommands.empty();
    }
    try {
      return PowerOffCommands.load(Path.of(file));
    } catch (IllegalArgumentException e) {
      throw new ConfigException("wakeOnLan.powerOffCommandsFile: " + e.getMessage());
    }
  }

  /**
   * This process's one election of {@code component}, started at the first call: a second election
   * of the same component would campaign against the first with a lease of its own, and the gauges'
   * owner ({@code bamel_leader}) would follow whichever was added last.
   */
  private LeaderElection election(String component) {
    LeaderElection existing = elections.get(component);
    if (existing != null) {
      return existing;
    }
    // Resigned after the controllers have stopped (ShutdownSequence.Stage.LEADERSHIP).
    LeaderElection election =
        shutdown.add(
            ShutdownSequence.Stage.LEADERSHIP,
            "leadership of " + component,
            new LeaderElection(client, component, instance, LeaderElection.Options.DEFAULTS)
                .start());
    elections.put(component, election);
    leaderships.add(component, election::isLeader); // bamel_leader{component}, gauges' owners
    return election;
  }

  /** The port the API (or the health and metrics endpoints) listens on. */
  public int port() {
    return api != null ? api.port() : ops.port();
  }

  /** Whether this process serves the API (and with it the web console at {@code /ui/}). */
  public boolean servesApi() {
    return api != null;
  }

  /** The etcd endpoints in use (empty before {@link #start(TokenStore, Map)}). */
  public List<String> etcdEndpoints() {
    return endpoints;
  }

  /**
   * The CA and client certificate files that reach the embedded etcd (for {@code etcdctl}); empty
   * with configured etcd endpoints or before {@link #start(TokenStore, Map)}.
   */
  public Optional<EtcdCertificates.TlsFiles> embeddedEtcdFiles() {
    return Optional.ofNullable(embeddedTls);
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

  /**
   * Shuts down in the order of {@link ShutdownSequence}; never throws; safe to call while {@link
   * #start(TokenStore, Map)} runs (what it starts afterwards is closed at once) and more than once.
   */
  @Override
  public void close() {
    if (shutdown.closed()) {
      return;
    }
    LOG.info("bamel server stopping");
    shutdown.closeAll();
    LOG.info("bamel server stopped");
  }
}
