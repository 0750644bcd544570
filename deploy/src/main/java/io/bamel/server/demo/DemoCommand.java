package io.bamel.server.demo;

import io.bamel.inventory.api.security.TokenStore;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.runtime.FatalErrorHandler;
import io.bamel.inventory.store.BatchItem;
import io.bamel.inventory.store.BatchResult;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.node.NodeControllerConfig;
import io.bamel.power.BmcPowerState;
import io.bamel.power.PowerDriverRegistry;
import io.bamel.power.PowerMetrics;
import io.bamel.power.credentials.CredentialStore;
import io.bamel.power.redfish.RedfishDriver;
import io.bamel.power.sim.SimSystemConfig;
import io.bamel.power.sim.SimulatedBmcFleet;
import io.bamel.power.tls.X25519Provider;
import io.bamel.server.BamelServer;
import io.bamel.server.EtcdBanner;
import io.bamel.server.Logging;
import io.bamel.server.Overrides;
import io.bamel.server.PrivateFiles;
import io.bamel.server.StopHook;
import io.bamel.server.config.ConfigLoader;
import io.bamel.server.config.ServerConfig;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bamel demo}: the whole of bamel on one machine with nothing real to power. It starts an
 * embedded etcd, 24 simulated Redfish servers in two pools across three racks (one pool with GPUs),
 * and a simulated Kubernetes cluster in which a powered-on server joins a few seconds later and a
 * synthetic load rises and falls; then runs {@code bamel server} over them. Within two minutes
 * nodes power on, join, drain and power off: in the web console (whose address it prints first), in
 * the log, through the API and in {@code /metrics}. It prints its etcd endpoint and the {@code
 * etcdctl} command that reaches it. Ctrl-C stops everything, the embedded etcd last. {@code --speed
 * N} runs the whole {@link DemoTimeline} N times faster: the same sequence in 1/N of the time.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = "Runs bamel over a simulated fleet and Kubernetes cluster.")
public final class DemoCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--host",
      defaultValue = "127.0.0.1",
      description = "address to listen on (default ${DEFAULT-VALUE}: this machine only)")
  String host;

  @Option(names = "--port", defaultValue = "8080", description = "API port (0: a free one)")
  int port;

  @Option(
      names = "--period",
      defaultValue = "90s",
      description = "one rise and fall of the load (default ${DEFAULT-VALUE})")
  String period;

  @Option(
      names = "--speed",
      defaultValue = "1",
      description =
          "runs the whole timeline (load, power and join delays, controllers' intervals, pools'"
              + " windows and timeouts) this many times faster (default ${DEFAULT-VALUE})")
  int speed;

  @Option(names = "--log-format", defaultValue = "text", description = "text or json")
  String logFormat;

  @Override
  public Integer call() throws Exception {
    Logging.configure(logFormat, "info");
    // An Error anywhere or a dead core thread ends the process, so that it is restarted.
    FatalErrorHandler.install();
    // X25519 in TLS handshakes by Bouncy Castle: a third of the JDK's CPU per handshake, and a
    // fleet's periodic reads make one per read where BMCs close idle connections
    X25519Provider.install();
    if (speed < 1) {
      throw new ParameterException(spec.commandLine(), "--speed must be at least 1, not " + speed);
    }
    DemoTimeline timeline =
        DemoTimeline.standard(io.bamel.inventory.model.Durations.parse(period)).faster(speed);
    StopHook hook = StopHook.install("bamel-demo-shutdown");
    Demo demo;
    try {
      Path dir = Files.createTempDirectory("bamel-demo-");
      hook.own(() -> deleteQuietly(dir));
      demo = Demo.start(dir, host, port, timeline, hook, List.of());
    } catch (Exception | Error e) {
      hook.cancel();
      throw e;
    }
    String url = "http://" + (host.equals("0.0.0.0") ? "localhost" : host) + ":" + demo.port();
    // The console first: a person opens it and pastes the token from the file (never printed, and
    // never in a URL, which would land in shell history, proxy and browser logs).
    System.out.println("bamel demo console: " + url + "/ui/");
    System.out.println("  sign in by pasting the admin token from its file:");
    System.out.println("  admin token file: " + demo.adminTokenFile());
    System.out.println("  24 simulated servers in three racks, pools general and gpu");
    System.out.println("  API:     " + url + "/api/v1/nodes");
    System.out.println("  pools:   " + url + "/api/v1/pools");
    System.out.println("  metrics: " + url + "/metrics");
    // The embedded etcd, and the etcdctl command that reaches it with its client certificate.
    EtcdBanner.lines(demo.server()).forEach(System.out::println);
    System.out.println(
        "  try: curl -H \"Authorization: Bearer $(cat "
            + demo.adminTokenFile()
            + ")\" "
            + url
            + "/api/v1/pools");
    System.out.println("  Ctrl-C stops the demo.");
    System.out.flush();
    hook.awaitStop();
    return 0;
  }

  /**
   * A running demo: the simulated fleet and cluster, and the server over them. Everything it starts
   * is owned by the {@link StopHook} given to {@link #start}, which closes it.
   *
   * @param fleet the simulated BMCs
   * @param cluster the simulated Kubernetes cluster
   * @param server the server
   * @param adminTokenFile the file holding the admin token of this run (readable by its owner only;
   *     the token is never printed)
   */
  public record Demo(
      SimulatedBmcFleet fleet, SimulatedCluster cluster, BamelServer server, Path adminTokenFile) {

    /** The port the API listens on. */
    public int port() {
      return server.port();
    }

    /**
     * Starts the demo with its data in {@code dir}, listening on {@code host:port}; {@code owner}
     * closes what it starts.
     */
    public static Demo start(Path dir, String host, int port, Duration loadPeriod, StopHook owner)
        throws Exception {
      return start(dir, host, port, loadPeriod, owner, List.of());
    }

    /**
     * As {@link #start(Path, String, int, Duration, StopHook, List)}, at the standard timeline with
     * a load period of {@code loadPeriod}.
     */
    public static Demo start(
        Path dir,
        String host,
        int port,
        Duration loadPeriod,
        StopHook owner,
        List<String> extraTokenLines)
        throws Exception {
      return start(dir, host, port, DemoTimeline.standard(loadPeriod), owner, extraTokenLines);
    }

    /**
     * As {@link #start(Path, String, int, Duration, StopHook)}, at {@code timeline}, with more
     * tokens besides the admin token: tokens-file lines ({@link TokenStore#line}), for tests that
     * sign in with other scopes.
     */
    public static Demo start(
        Path dir,
        String host,
        int port,
        DemoTimeline timeline,
        StopHook owner,
        List<String> extraTokenLines)
        throws Exception {
      SimulatedBmcFleet fleet = owner.own(SimulatedBmcFleet.start(false));
      ScheduledExecutorService ticker =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "demo-cluster");
                t.setDaemon(true);
                return t;
              });
      owner.own(ticker::shutdownNow);
      SimSystemConfig simConfig =
          SimSystemConfig.defaults()
              .withCredentials("admin", "demo-password")
              .withPowerDelay(timeline.powerDelay())
              .withInitialState(BmcPowerState.OFF);
      List<DemoFleet.Server> servers = DemoFleet.servers();
      List<SimulatedCluster.Machine> machines = new ArrayList<>();
      for (DemoFleet.Server s : servers) {
        fleet.add(s.id(), simConfig);
        machines.add(
            new SimulatedCluster.Machine(
                s.id(),
                s.pool(),
                s.allocatable(),
                id -> fleet.system(id).powerState() == BmcPowerState.ON));
      }
      SimulatedCluster cluster =
          new SimulatedCluster(
              Clock.systemUTC(),
              timeline.joinDelay(),
              machines,
              DemoFleet.load(timeline.loadPeriod()));
      ticker.scheduleAtFixedRate(cluster::tick, 0, timeline.tick().toNanos(), TimeUnit.NANOSECONDS);

      Path credentials = dir.resolve("bmc");
      writeCredentials(credentials.resolve(DemoFleet.CREDENTIALS), "admin", "demo-password");
      // The simulated BMCs speak plain HTTP on loopback: the credential may go there and only
      // there.
      PrivateFiles.write(
          credentials.resolve(DemoFleet.CREDENTIALS).resolve("allowed-hosts"),
          "# the simulated BMCs of the demo\nhttp://127.0.0.1\n");
      PrometheusRegistry registry = new PrometheusRegistry();
      PowerDriverRegistry drivers =
          new PowerDriverRegistry(new PowerMetrics(registry), Clock.systemUTC())
              .register(new RedfishDriver(new CredentialStore(credentials)));
      ServerConfig config =
          ConfigLoader.load(
              null,
              Map.of(),
              Map.of(
                  "http.host", host,
                  "http.port", Integer.toString(port),
                  "etcd.dataDir", dir.resolve("etcd").toString(),
                  "bmc.credentialsDir", credentials.toString(),
                  "instance", "demo"));
      String adminToken = TokenStore.newToken();
      Path adminTokenFile = PrivateFiles.write(dir.resolve("admin-token"), adminToken + "\n");
      TokenStore tokens =
          TokenStore.load(writeTokens(dir.resolve("tokens"), adminToken, extraTokenLines));
      NodeControllerConfig nodeConfig =
          NodeControllerConfig.DEFAULTS
              .withIntervals(timeline.syncInterval(), timeline.pollInterval())
              .withBackoff(timeline.backoffBase(), timeline.backoffMax())
              .withBmcCallTimeout(Duration.ofSeconds(20));
      BamelServer server =
          owner.own(
              BamelServer.prepare(
                  config,
                  new Overrides(
                      cluster,
                      drivers,
                      registry,
                      Clock.systemUTC(),
                      nodeConfig,
                      timeline.poolInterval())));
      server.start(tokens, Map.of());
      seed(server, fleet, servers, timeline);
      return new Demo(fleet, cluster, server, adminTokenFile);
    }
  }

  private static void seed(
      BamelServer server,
      SimulatedBmcFleet fleet,
      List<DemoFleet.Server> servers,
      DemoTimeline timeline) {
    Instant now = Instant.now();
    List<BatchItem> items = new ArrayList<>();
    for (int i = 0; i < servers.size(); i++) {
      DemoFleet.Server s = servers.get(i);
      items.add(
          BatchItem.upsert(
              s.id(),
              DemoFleet.spec(s, fleet.address(s.id()), i),
              NodeEvent.change(now, "created", "demo inventory", "demo", null)));
    }
    for (BatchResult r : server.store().upsertAll(items)) {
      if (r.outcome() != BatchResult.Outcome.CREATED
          && r.outcome() != BatchResult.Outcome.UNCHANGED) {
        throw new IllegalStateException(
            "demo inventory: " + r.id() + " " + r.outcome() + " " + r.message());
      }
    }
    DemoFleet.pools(timeline)
        .forEach(
            (name, config) ->
                server.store().putPoolConfig(name, config, EtcdInventory.ANY_REVISION));
  }

  private static void writeCredentials(Path dir, String user, String password) throws IOException {
    PrivateFiles.directory(dir);
    PrivateFiles.write(dir.resolve(CredentialStore.USERNAME), user);
    PrivateFiles.write(dir.resolve(CredentialStore.PASSWORD), password);
  }

  private static Path writeTokens(Path file, String adminToken, List<String> extra)
      throws IOException {
    StringBuilder lines =
        new StringBuilder(TokenStore.line("demo-admin", "admin", adminToken)).append('\n');
    extra.forEach(l -> lines.append(l).append('\n'));
    return PrivateFiles.write(file, lines.toString());
  }

  private static void deleteQuietly(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // A temporary directory: the system cleans it eventually.
    }
  }
}
