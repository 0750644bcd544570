package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.api.ApiOptions;
import io.bamel.inventory.api.InventoryApi;
import io.bamel.inventory.api.security.TokenStore;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.testing.EtcdCluster;
import io.bamel.power.sim.SimSystemConfig;
import io.bamel.power.sim.SimulatedBmcFleet;
import io.bamel.server.client.ApiClient;
import io.bamel.server.client.ClientConfig;
import io.bamel.server.client.ClientEnvironment;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The client commands ({@code get}, {@code describe}, {@code power}, {@code cordon}, {@code watch},
 * {@code inspect}) against a real API on loopback over a real etcd: what they print, their exit
 * codes, and that the token never shows in their output.
 */
class ClientIT {

  private static final String ADMIN = "client-it-admin-token-0123456789";
  private static final String READER = "client-it-read-token-0123456789";

  private static EtcdCluster etcd;
  private static InventoryCache cache;
  private static InventoryApi api;
  private static String server;
  private static ApiClient admin;
  private static final StringBuilder EVERYTHING = new StringBuilder();

  private record Run(int exit, String out, String err) {}

  @BeforeAll
  static void start() throws Exception {
    etcd = EtcdCluster.start(1);
    EtcdInventory store = new EtcdInventory(etcd.client());
    cache = new InventoryCache(etcd.client());
    cache.start();
    assertThat(cache.awaitSynced(Duration.ofSeconds(20))).isTrue();
    Path tokens = Files.createTempFile("client-it", ".tokens");
    Files.writeString(
        tokens,
        TokenStore.line("ops", "admin", ADMIN)
            + "\n"
            + TokenStore.line("viewer", "read", READER)
            + "\n");
    api =
        InventoryApi.create(
                store,
                cache,
                TokenStore.load(tokens),
                ApiOptions.DEFAULTS,
                new PrometheusRegistry())
            .start("127.0.0.1", 0);
    server = "http://127.0.0.1:" + api.port();
    admin = new ApiClient(new ClientConfig(URI.create(server), ADMIN, "test", null, null));
    for (String[] n :
        List.of(
            new String[] {"r1-u01", "gpu", "a", "192.0.2.11"},
            new String[] {"r1-u02", "gpu", "b", "192.0.2.12"},
            new String[] {"r2-u01", "general", "a", "192.0.2.21"})) {
      admin.send(
          "PUT",
          ApiClient.API + "/nodes/" + n[0],
          "application/json",
          "{\"name\":\""
              + n[0]
              + "\",\"rack\":\"R1\",\"pool\":\""
              + n[1]
              + "\",\"labels\":{\"zone\":\""
              + n[2]
              + "\"},\"mgmtAddress\":\"https://"
              + n[3]
              + "\",\"powerInterface\":\"redfish\",\"bmcCredentials\":\"bmc\"}");
    }
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      api.close();
    }
    if (cache != null) {
      cache.close();
    }
    if (etcd != null) {
      etcd.close();
    }
  }

  private static Run bamelAs(String token, String... args) {
    Map<String, String> env = new HashMap<>();
    env.put("BAMEL_SERVER", server);
    env.put("BAMEL_CONFIG", "/nonexistent/bamel-client-it.yaml");
    if (token != null) {
      env.put("BAMEL_TOKEN", token);
    }
    CommandLine line =
        Main.commandLine(new ClientEnvironment(env, Path.of("/nonexistent"), Clock.systemUTC()));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    line.setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    int exit = line.execute(args);
    synchronized (EVERYTHING) {
      EVERYTHING.append(out).append(err);
    }
    return new Run(exit, out.toString(), err.toString());
  }

  private static Run bamel(String... args) {
    return bamelAs(ADMIN, args);
  }

  @Test
  void getNodesIsATableFilteredByPoolStateAndSelector() {
    Run all = bamel("get", "nodes");
    assertThat(all.exit()).as(all.err()).isZero();
    assertThat(all.out().lines().toList())
        .hasSize(4)
        .first()
        .isEqualTo("NAME     POOL      STATE     POWER         READY    AGE");
    assertThat(all.out()).contains("r1-u01   gpu       unknown   off/unknown   <none>   <none>");

    Run gpu = bamel("get", "nodes", "--pool", "gpu", "-o", "name");
    assertThat(gpu.out()).isEqualTo("node/r1-u01\nnode/r1-u02\n");

    // labelSelector where the server knows it; labels=k=v (the older parameter) where it does not
    Run zoneA = bamel("get", "nodes", "-l", "zone=a", "-o", "name");
    assertThat(zoneA.exit()).as(zoneA.err()).isZero();
    assertThat(zoneA.out()).isEqualTo("node/r1-u01\nnode/r2-u01\n");

    Run none = bamel("get", "nodes", "--state", "ready");
    assertThat(none.exit()).isZero();
    assertThat(none.out()).isEmpty();
    assertThat(none.err()).isEqualTo("No resources found.\n");

    Run wide = bamel("get", "nodes", "r2-u01", "-o", "wide");
    assertThat(wide.out()).contains("RACK   MGMT").contains("R1     https://192.0.2.21   redfish");
  }

  @Test
  void getPoolsAndDescribe() {
    Run pools = bamel("get", "pools", "-o", "name");
    assertThat(pools.exit()).as(pools.err()).isZero();
    assertThat(pools.out()).contains("pool/gpu\n").contains("pool/general\n");

    Run node = bamel("describe", "node", "r1-u02");
    assertThat(node.exit()).as(node.err()).isZero();
    assertThat(node.out())
        .startsWith("Name:         r1-u02\nPool:         gpu\n")
        .contains("  mgmtAddress:     https://192.0.2.12\n")
        .contains("Events:\n  AGE ")
        .contains("ops");

    Run pool = bamel("describe", "pool", "gpu");
    assertThat(pool.out()).contains("Members:\n  r1-u01\n  r1-u02\n");
  }

  @Test
  void powerAndCordonChangeTheSpec() {
    Run on = bamel("power", "on", "r2-u01");
    assertThat(on.exit()).as(on.err()).isZero();
    assertThat(on.out()).isEqualTo("node/r2-u01 power on (desired on, policy manual)\n");
    Run back = bamel("power", "pool", "r2-u01");
    assertThat(back.out()).isEqualTo("node/r2-u01 power pool (desired on, policy pool)\n");

    Run cordon = bamel("cordon", "r1-u01");
    assertThat(cordon.exit()).as(cordon.err()).isZero();
    assertThat(bamel("get", "nodes", "r1-u01").out()).contains("unknown,maintenance");
    assertThat(bamel("maintenance", "off", "r1-u01").exit()).isZero();
    assertThat(bamel("get", "nodes", "r1-u01").out()).doesNotContain("maintenance");
  }

  @Test
  void failuresAreOneLineNamingTheServerWithExitCodeOne() {
    Run missing = bamel("describe", "node", "nope");
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(missing.err())
        .startsWith("error: not found: /api/v1/nodes/nope (404 from " + server);

    Run wrong = bamelAs("wrong-token-value-123", "get", "nodes");
    assertThat(wrong.exit()).isEqualTo(1);
    assertThat(wrong.err())
        .startsWith("error: the server refused the token from BAMEL_TOKEN (401 from " + server)
        .doesNotContain("wrong-token-value-123");

    Run noToken = bamelAs(null, "get", "pools");
    assertThat(noToken.err()).startsWith("error: not signed in: no token");

    Run forbidden = bamelAs(READER, "power", "off", "r1-u02");
    assertThat(forbidden.exit()).isEqualTo(1);
    assertThat(forbidden.err())
        .startsWith("error: forbidden: the token's scope does not allow POST");

    // The request is accepted (202), but no node controller runs here to carry it out.
    Run inspect = bamel("inspect", "r1-u02", "--timeout", "2");
    assertThat(inspect.exit()).isEqualTo(1);
    assertThat(inspect.err())
        .startsWith("node/r1-u02 inspection requested; waiting")
        .contains("error: node/r1-u02 was not inspected within 2 s");
    assertThat(admin.get(ApiClient.API + "/nodes/r1-u02").path("status").has("inspectRequestedAt"))
        .as("the request is recorded for the node controller")
        .isTrue();
  }

  @Test
  void refusedConnectionNamesTheServer() {
    Run refused = bamel("get", "nodes", "--server", "http://127.0.0.1:9");
    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.err())
        .isEqualTo(
            "error: cannot connect to the bamel server at http://127.0.0.1:9: connection refused"
                + " (is it running? set --server, BAMEL_SERVER or server: in"
                + " ~/.config/bamel/config.yaml)\n");
  }

  @Test
  void watchPrintsEachChangeOfTheChosenPool() throws Exception {
    CompletableFuture<Run> watch =
        CompletableFuture.supplyAsync(
            () -> bamel("watch", "nodes", "--pool", "gpu", "--max-events", "1"));
    // The stream starts "now": change nodes until the watch has seen one of the gpu pool.
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    int i = 0;
    while (!watch.isDone() && System.nanoTime() < end) {
      bamel("power", i++ % 2 == 0 ? "manual" : "pool", "r2-u01");
      bamel("power", i % 2 == 0 ? "manual" : "pool", "r1-u02");
      Thread.sleep(200);
    }
    Run run = watch.get(5, TimeUnit.SECONDS);
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out().lines().toList()).hasSize(2);
    assertThat(run.out().lines().toList().get(1)).startsWith("MODIFIED    r1-u02             gpu");
  }

  @Test
  void noOptionTakesATokenAndNoOutputShowsOne() {
    CommandLine all = Main.commandLine();
    List<String> names = new java.util.ArrayList<>();
    collect(all, names);
    assertThat(names)
        .filteredOn(n -> n.toLowerCase(java.util.Locale.ROOT).contains("token"))
        .allMatch(n -> n.endsWith("-file"), "only token files");
    bamel("get", "nodes");
    bamelAs(READER, "describe", "node", "r1-u01");
    synchronized (EVERYTHING) {
      assertThat(EVERYTHING.toString()).doesNotContain(ADMIN).doesNotContain(READER);
    }
  }

  private static void collect(CommandLine line, List<String> names) {
    if (!line.getCommandName().equals("token")) {
      line.getCommandSpec().options().forEach(o -> names.addAll(List.of(o.names())));
    }
    line.getSubcommands().values().forEach(sub -> collect(sub, names));
  }

  @Test
  void bmcNodeTakesTheBmcFromTheInventoryAndTheSecretFromTheCredentialsDirectory(@TempDir Path dir)
      throws Exception {
    String password = "client-it-bmc-password";
    try (SimulatedBmcFleet fleet = SimulatedBmcFleet.start(true)) {
      fleet.add("client-it", SimSystemConfig.defaults().withCredentials("admin", password));
      Path ca = fleet.writeCaBundle(dir.resolve("ca.pem"));
      Path creds = Files.createDirectories(dir.resolve("bmc/client-it"));
      Files.writeString(creds.resolve("username"), "admin");
      Files.writeString(creds.resolve("password"), password);
      admin.send(
          "PUT",
          ApiClient.API + "/nodes/r9-bmc",
          "application/json",
          "{\"name\":\"r9-bmc\",\"mgmtAddress\":\""
              + fleet.address("client-it")
              + "\",\"powerInterface\":\"redfish\",\"bmcCredentials\":\"client-it\","
              + "\"bmcTls\":{\"caFile\":\""
              + ca
              + "\"}}");
      try {
        Run status =
            bamel(
                "bmc",
                "status",
                "--node",
                "r9-bmc",
                "--credentials",
                dir.resolve("bmc").toString(),
                "--output",
                "json");
        assertThat(status.exit()).as(status.err()).isZero();
        assertThat(status.out())
            .contains("\"interface\":\"redfish\"")
            .contains("\"powerState\":\"off\"")
            .doesNotContain(password);

        Run unknown = bamel("bmc", "status", "--node", "r9-none");
        assertThat(unknown.exit()).isEqualTo(1);
        assertThat(unknown.err()).startsWith("bamel bmc status: not found: /api/v1/nodes/r9-none");
      } finally {
        admin.send("DELETE", ApiClient.API + "/nodes/r9-bmc", null, null);
      }
    }
  }
}
