package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.testing.EtcdExtension;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every query of the Grafana dashboard ({@code grafana/bamel-dashboard.json}) against a real
 * Prometheus (Debian's {@code prometheus}, started here on loopback with a 1 s scrape interval)
 * scraping two bamel servers on one etcd: every query is valid, and the numbers (nodes by state,
 * leaders per component, a pool's thresholds, builds, processes) equal what the API says, so two
 * replicas never count a node twice.
 */
class DashboardPrometheusIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  private static final String PROMETHEUS = "/usr/bin/prometheus";
  private static final List<String> COMPONENTS =
      List.of("node-controller", "pool-controller", "etcd-maintenance");

  @TempDir Path dir;
  private final HttpClient http = HttpClient.newHttpClient();

  private BamelServer server(String instance, int port) throws Exception {
    return DriverlessServer.start(
        dir, instance, port, ETCD.cluster().endpoints(), Duration.ofSeconds(1));
  }

  @Test
  void everyDashboardQueryRunsAndTwoReplicasCountEachNodeOnce() throws Exception {
    assumeThat(Files.isExecutable(Path.of(PROMETHEUS)))
        .as("Debian's prometheus package is installed (" + PROMETHEUS + ")")
        .isTrue();
    int portA = freePort();
    int portB = freePort();
    // Prometheus starts while the servers do; it scrapes them once they listen.
    Process prometheus = startPrometheus(portA, portB);
    CompletableFuture<BamelServer> startB =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return server("bamel-b", portB);
              } catch (Exception e) {
                throw new CompletionException(e);
              }
            });
    try (BamelServer a = server("bamel-a", portA);
        BamelServer b = startB.join()) {
      EtcdInventory store = a.store();
      store.putPoolConfig(
          "gpu",
          PoolConfig.builder()
              .minNodes(0)
              .maxNodes(4)
              .scaleUpThreshold(0.8)
              .scaleDownThreshold(0.3)
              .build(),
          EtcdInventory.ANY_REVISION);
      for (int i = 1; i <= 5; i++) {
        store.createNode(
            "n" + i,
            NodeSpec.builder()
                .name("n" + i)
                .pool(i <= 3 ? "gpu" : null)
                .powerInterface(PowerInterface.of("redfish"))
                .mgmtAddress("https://192.0.2." + i)
                .build(),
            null);
      }
      try {
        int port = promPort;
        awaitScrapes(port);
        // the API's numbers, stable over two reads around the Prometheus queries
        Map<String, Integer> before = statesFromApi(a.port());
        Thread.sleep(1_500); // one more scrape after the states were read
        Map<String, JsonNode> results = runDashboard(port);
        Map<String, Integer> after = statesFromApi(b.port());
        assertThat(after).as("states did not change while querying").isEqualTo(before);

        int on = 0;
        for (String s : List.of("ready", "joining", "powering-on", "draining")) {
          on += before.getOrDefault(s, 0);
        }
        assertThat(single(results, "Nodes on")).isEqualTo(on);
        assertThat(single(results, "Nodes off")).isEqualTo((double) before.getOrDefault("off", 0));
        assertThat(single(results, "Nodes in error"))
            .isEqualTo((double) before.getOrDefault("error", 0));
        Map<String, Double> byState = byLabel(results.get("Fleet by state/A"), "state");
        for (NodeState s : NodeState.values()) {
          assertThat(byState.get(s.json()))
              .as("nodes %s (0 is shown, not absent)", s.json())
              .isEqualTo((double) before.getOrDefault(s.json(), 0));
        }
        assertThat(byState.values().stream().mapToDouble(Double::doubleValue).sum()).isEqualTo(5);
        Map<String, Double> leaders = new TreeMap<>();
        for (JsonNode r : results.get("Leadership/A")) {
          leaders.merge(r.path("metric").path("component").asText(), value(r), Double::sum);
        }
        for (String c : COMPONENTS) {
          assertThat(leaders).as("one leader of %s", c).containsEntry(c, 1.0);
        }
        assertThat(single(results, "Components without a leader")).isZero();
        assertThat(results.get("Builds/A")).hasSize(2);
        assertThat(results.get("JVM heap used/A")).hasSize(2);
        assertThat(results.get("Process CPU/A")).hasSize(2);
        assertThat(value(results.get("$pool: utilization against thresholds/B").get(0)))
            .isEqualTo(0.8);
        assertThat(value(results.get("$pool: utilization against thresholds/C").get(0)))
            .isEqualTo(0.3);
        assertThat(
                single(
                    query(port, "sum(bamel_nodes{job=\"bamel\"})"), "raw sum over both replicas"))
            .as("the fleet gauges come from one replica")
            .isEqualTo(5);
      } finally {
        stop(prometheus);
      }
    } finally {
      stop(prometheus);
      startB.thenAccept(BamelServer::close); // when a's start failed first
    }
  }

  private static void stop(Process prometheus) throws InterruptedException {
    prometheus.destroy();
    if (!prometheus.waitFor(5, TimeUnit.SECONDS)) {
      prometheus.destroyForcibly();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private int promPort;

  private Process startPrometheus(int portA, int portB) throws IOException {
    promPort = freePort();
    Path config =
        Files.writeString(
            dir.resolve("prometheus.yml"),
            String.join(
                "\n",
                "global: {scrape_interval: 1s, scrape_timeout: 1s, evaluation_interval: 1s}",
                "scrape_configs:",
                "  - job_name: bamel",
                "    static_configs:",
                "      - targets: ['127.0.0.1:" + portA + "', '127.0.0.1:" + portB + "']",
                ""));
    return new ProcessBuilder(
            PROMETHEUS,
            "--config.file=" + config,
            "--storage.tsdb.path=" + dir.resolve("tsdb"),
            "--web.listen-address=127.0.0.1:" + promPort,
            "--log.level=warn")
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("prometheus.log").toFile())
        .start();
  }

  /** Waits until both targets are up and have been scraped a few times (rates need two). */
  private void awaitScrapes(int port) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (true) {
      try {
        JsonNode up = query(port, "count_over_time(up{job=\"bamel\"}[1m]) >= 2 and up == 1");
        if (up.size() == 2) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "Prometheus did not scrape both servers: "
                + Files.readString(dir.resolve("prometheus.log")));
      }
      Thread.sleep(250);
    }
  }

  /** Runs every target of every panel; keyed by {@code title/refId}. */
  private Map<String, JsonNode> runDashboard(int port) throws Exception {
    JsonNode dashboard = Codec.mapper().readTree(Path.of("grafana/bamel-dashboard.json").toFile());
    Map<String, JsonNode> results = new HashMap<>();
    List<String> failures = new ArrayList<>();
    for (JsonNode panel : dashboard.get("panels")) {
      String title = panel.get("title").asText();
      for (JsonNode target : panel.get("targets")) {
        String expr =
            target
                .get("expr")
                .asText()
                .replace("pool=\"$pool\"", "pool=\"gpu\"")
                .replace("$job", "bamel")
                .replace("$instance", ".*")
                .replace("$pool", ".*");
        assertThat(expr).as(title).doesNotContain("$");
        try {
          JsonNode r = query(port, expr);
          results.put(title + "/" + target.get("refId").asText(), r);
          if (panel.get("type").asText().equals("stat")) {
            assertThat(r).as("%s: a number, not \"No data\"", title).hasSize(1);
          }
        } catch (AssertionError | IOException e) {
          failures.add(title + ": " + expr + ": " + e.getMessage());
        }
      }
    }
    assertThat(failures).isEmpty();
    return results;
  }

  private JsonNode query(int port, String expr) throws IOException, InterruptedException {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(
                    URI.create(
                        "http://127.0.0.1:"
                            + port
                            + "/api/v1/query?query="
                            + URLEncoder.encode(expr, StandardCharsets.UTF_8)))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    JsonNode body = Codec.mapper().readTree(r.body());
    if (r.statusCode() != 200 || !"success".equals(body.path("status").asText())) {
      throw new AssertionError("query failed (" + r.statusCode() + "): " + r.body());
    }
    return body.path("data").path("result");
  }

  private Map<String, Integer> statesFromApi(int port) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/nodes"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    Map<String, Integer> states = new TreeMap<>();
    for (JsonNode node : Codec.mapper().readTree(r.body()).get("items")) {
      states.merge(node.path("status").path("state").asText("unknown"), 1, Integer::sum);
    }
    return states;
  }

  private static double value(JsonNode sample) {
    return Double.parseDouble(sample.path("value").get(1).asText());
  }

  private static double single(Map<String, JsonNode> results, String title) {
    return single(results.get(title + "/A"), title);
  }

  private static double single(JsonNode result, String what) {
    assertThat(result).as(what).hasSize(1);
    return value(result.get(0));
  }

  private static Map<String, Double> byLabel(JsonNode result, String label) {
    Map<String, Double> out = new TreeMap<>();
    for (JsonNode r : result) {
      out.put(r.path("metric").path(label).asText(), value(r));
    }
    return out;
  }
}
