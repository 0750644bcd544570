package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.api.security.TokenStore;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.store.Keys;
import io.bamel.inventory.testing.EtcdCluster;
import io.bamel.kube.testing.KubeApiServer;
import io.bamel.power.sim.SimOperation;
import io.bamel.power.sim.SimSystemConfig;
import io.bamel.power.sim.SimulatedBmcFleet;
import io.bamel.power.sim.SimulatedSystem;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end, as a user runs bamel: two {@code bin/bamel server} processes with config files on one
 * real etcd, the simulated Redfish fleet, and the fabric8 mock API server with test kubelets and a
 * scheduler. Nodes are synced through the API; pending pods make nodes power on, join and become
 * ready; the node controller's leader is killed (SIGKILL) mid-way and the standby finishes; the
 * load goes away and the nodes drain and power off. The simulator counts no duplicate power
 * operation.
 */
class HaEndToEndIT {

  private static final int MACHINES = 6;
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void syncScaleUpFailoverAndScaleDown(@TempDir Path dir) throws Exception {
    String token = TokenStore.newToken();
    Files.writeString(dir.resolve("tokens"), TokenStore.line("e2e", "admin", token) + "\n");
    Path creds = dir.resolve("bmc/sim");
    Files.createDirectories(creds);
    Files.writeString(creds.resolve("username"), "admin");
    Files.writeString(creds.resolve("password"), "e2e-password");
    // The simulated BMCs speak plain HTTP on loopback: allowed for this credential only there.
    Files.writeString(creds.resolve("allowed-hosts"), "http://127.0.0.1\n");

    try (EtcdCluster etcd = EtcdCluster.start(1);
        KubeApiServer kube = KubeApiServer.start();
        SimulatedBmcFleet fleet = SimulatedBmcFleet.start(false)) {
      fleet.addSystems(
          MACHINES,
          "m",
          SimSystemConfig.defaults()
              .withCredentials("admin", "e2e-password")
              .withPowerDelay(Duration.ofSeconds(1)));
      Path kubeconfig = writeKubeconfig(dir, kube);
      Path configA = writeConfig(dir, "a", etcd, kubeconfig);
      Path configB = writeConfig(dir, "b", etcd, kubeconfig);

      try (TestCluster cluster = new TestCluster(fleet, kube);
          BamelProcess a = BamelProcess.start(Map.of(), "server", "--config", configA.toString());
          BamelProcess b = BamelProcess.start(Map.of(), "server", "--config", configB.toString());
          Client client = etcd.client()) {
        try {
          run(a, b, token, fleet, cluster, client);
        } finally {
          // For a failure's report: what both servers decided and did.
          for (BamelProcess p : List.of(a, b)) {
            p.lines().stream()
                .filter(
                    l -> l.contains("pool decision") || l.contains("node ") || l.contains("WARN"))
                .forEach(System.out::println);
          }
        }
      }
    }
  }

  private void run(
      BamelProcess a,
      BamelProcess b,
      String token,
      SimulatedBmcFleet fleet,
      TestCluster cluster,
      Client client)
      throws Exception {
    {
      a.await(l -> l.contains("bamel server is running"), Duration.ofSeconds(90), "server a");
      b.await(l -> l.contains("bamel server is running"), Duration.ofSeconds(90), "server b");
      int portA = a.port(Duration.ofSeconds(10));
      int portB = b.port(Duration.ofSeconds(10));
      String api = "http://127.0.0.1:" + portA;

      // DCIM sync of the machines, and the pool's config, through the API.
      assertThat(send("PUT", api + "/api/v1/pools/general", token, POOL).statusCode())
          .isIn(200, 201);
      HttpResponse<String> sync = send("POST", api + "/api/v1/sync", token, syncBody(fleet));
      assertThat(sync.statusCode()).as(sync.body()).isEqualTo(200);
      assertThat(sync.body()).contains("created");

      // Load: four pods of 8 CPUs need two 16-CPU nodes.
      cluster.createPods("general", 4, 8);
      // Kill the node controller's leader mid-way: once every node the pool wants on has had its
      // power-on reach the BMC (a power-on written ahead but never sent would only be retried
      // after the pool's 60 s power-on timeout, and the pool would meanwhile use a third machine).
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(100))
          .ignoreExceptions()
          .until(
              () -> {
                List<String> wanted = desiredOn(api, token);
                return !wanted.isEmpty()
                    && wanted.stream().allMatch(id -> fleet.system(id).resets("On") > 0);
              });
      String leader = holder(client, "node-controller");
      BamelProcess leaderProcess = leader.equals("a") ? a : b;
      BamelProcess standby = leader.equals("a") ? b : a;
      leaderProcess.kill();
      String standbyApi = "http://127.0.0.1:" + (leader.equals("a") ? portB : portA);

      await()
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofSeconds(1))
          .ignoreExceptions()
          .untilAsserted(
              () -> assertThat(cluster.runningPods()).as(cluster::describe).isEqualTo(4));
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(() -> assertThat(readyNodes(standbyApi, token)).isEqualTo(2));
      assertThat(holder(client, "node-controller")).isNotEqualTo(leader);

      // The load goes away: the nodes drain and power off.
      cluster.deletePods();
      await()
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofSeconds(1))
          .ignoreExceptions()
          .untilAsserted(() -> assertThat(offNodes(standbyApi, token)).isEqualTo(MACHINES));

      // Exactly one power-on and at most one power-off request reached each machine used.
      List<String> used = new ArrayList<>();
      for (SimulatedSystem s : fleet.systems()) {
        assertThat(s.resets("On") + s.resets("ForceOn"))
            .as(s.id() + " power-ons")
            .isLessThanOrEqualTo(1);
        assertThat(s.resets("GracefulShutdown") + s.resets("ForceOff"))
            .as(s.id() + " power-offs")
            .isLessThanOrEqualTo(s.resets("On") + s.resets("ForceOn"));
        if (s.resets("On") + s.resets("ForceOn") == 1) {
          used.add(s.id());
        }
        assertThat(s.count(SimOperation.RESET)).isLessThanOrEqualTo(2);
      }
      assertThat(used).hasSize(2);
      assertThat(standby.isAlive()).isTrue();
      assertThat(standby.terminate(Duration.ofSeconds(60))).isZero();
    }
  }

  private static final String POOL =
      """
      {"minNodes":0,"maxNodes":6,"scaleUpOn":"pending","scaleDownUnneededTime":"5s","delayAfterScaleUp":"5s",
       "maxConcurrentTransitions":6,"resources":["cpu"],
       "timeouts":{"powerOn":"60s","join":"60s","drain":"60s","powerOff":"30s"}}
      """;

  private static String syncBody(SimulatedBmcFleet fleet) {
    StringBuilder sb = new StringBuilder("{\"items\":[");
    for (int i = 0; i < MACHINES; i++) {
      String id = fleet.systems().get(i).id();
      if (i > 0) {
        sb.append(',');
      }
      sb.append("{\"id\":\"")
          .append(id)
          .append("\",\"spec\":{")
          .append("\"name\":\"")
          .append(id)
          .append("\",")
          .append("\"serial\":\"E2E")
          .append(i)
          .append("\",")
          .append("\"rack\":\"r")
          .append(i % 2)
          .append("\",")
          .append("\"pool\":\"general\",")
          .append("\"mgmtAddress\":\"")
          .append(fleet.address(id))
          .append("\",")
          .append("\"powerInterface\":\"redfish\",")
          .append("\"bmcCredentials\":\"sim\",")
          .append("\"resources\":{\"cpu\":\"16\",\"memory\":\"64Gi\"}}}");
    }
    return sb.append("]}").toString();
  }

  private HttpResponse<String> send(String method, String url, String token, String body)
      throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(url))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json")
            .method(method, HttpRequest.BodyPublishers.ofString(body))
            .timeout(Duration.ofSeconds(30))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The ids of the nodes whose desired power state is on. */
  private List<String> desiredOn(String api, String token) throws Exception {
    List<String> ids = new ArrayList<>();
    for (JsonNode item : list(api, token, "/api/v1/nodes").get("items")) {
      if ("on".equals(item.path("spec").path("powerState").asText())) {
        ids.add(item.get("id").asText());
      }
    }
    return ids;
  }

  private long readyNodes(String api, String token) throws Exception {
    return countState(api, token, "ready");
  }

  private long offNodes(String api, String token) throws Exception {
    return countState(api, token, "off");
  }

  private long countState(String api, String token, String state) throws Exception {
    return list(api, token, "/api/v1/nodes?state=" + state).get("items").size();
  }

  private JsonNode list(String api, String token, String path) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(api + path))
                .header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return Codec.mapper().readTree(r.body());
  }

  private static String holder(Client client, String component) throws Exception {
    var kvs =
        client
            .getKVClient()
            .get(ByteSequence.from(Keys.leader(component), StandardCharsets.UTF_8))
            .get(10, TimeUnit.SECONDS)
            .getKvs();
    return kvs.isEmpty() ? "" : kvs.get(0).getValue().toString(StandardCharsets.UTF_8);
  }

  private static Path writeKubeconfig(Path dir, KubeApiServer kube) throws Exception {
    String url;
    try (var c = kube.client()) {
      url = c.getConfiguration().getMasterUrl();
    }
    return Files.writeString(
        dir.resolve("kubeconfig"),
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: mock
          cluster:
            server: %s
            insecure-skip-tls-verify: true
        users:
        - name: e2e
          user:
            token: not-checked
        contexts:
        - name: mock
          context:
            cluster: mock
            user: e2e
        current-context: mock
        """
            .formatted(url));
  }

  private static Path writeConfig(Path dir, String name, EtcdCluster etcd, Path kubeconfig)
      throws Exception {
    return Files.writeString(
        dir.resolve(name + ".yaml"),
        """
        instance: %s
        http:
          host: 127.0.0.1
          port: 0
        etcd:
          endpoints: [%s]
        auth:
          tokensFile: %s
        bmc:
          credentialsDir: %s
        kubernetes:
          mode: kubeconfig
          kubeconfig: %s
        nodeController:
          syncInterval: 5s
        poolController:
          interval: 1s
        """
            .formatted(
                name,
                etcd.endpoints().get(0),
                dir.resolve("tokens"),
                dir.resolve("bmc"),
                kubeconfig));
  }
}
