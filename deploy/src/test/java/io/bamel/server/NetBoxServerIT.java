package io.bamel.server;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import io.bamel.dcim.netbox.WebhookSecret;
import io.bamel.dcim.netbox.WebhookSignature;
import io.bamel.inventory.api.security.TokenStore;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.testing.EtcdExtension;
import io.bamel.server.config.ConfigLoader;
import io.bamel.server.config.ServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The server with {@code netbox.*} set, against WireMock answering as NetBox 4.2: the leader pulls
 * at start, the status and metrics show it, a signed webhook is taken; {@code bamel sync netbox
 * --once --dry-run} prints the plan beside the running server and a real {@code --once} refuses
 * while the server leads, then pulls once the server is gone.
 */
class NetBoxServerIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  private static final String TOKEN = "nbt_abcDEF123456.s3cr3tT0kenValue0123456789abcdefghijklmn";
  private static final String SECRET = "hook-secret";

  @TempDir Path dir;
  private WireMockServer netbox;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() {
    netbox = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
    netbox.start();
    ObjectNode page = Codec.mapper().createObjectNode();
    page.put("count", 3).putNull("next").putNull("previous");
    ArrayNode results = page.putArray("results");
    ObjectNode interfaces = Codec.mapper().createObjectNode();
    interfaces.put("count", 3).putNull("next").putNull("previous");
    ArrayNode ifaces = interfaces.putArray("results");
    for (int id = 1; id <= 3; id++) {
      ObjectNode d = results.addObject();
      d.put("id", id).put("name", "gpu-0" + id).put("serial", "GPU" + id);
      d.putObject("site").put("id", 1).put("name", "Amsterdam 1").put("slug", "ams1");
      d.putObject("rack").put("id", 4).put("name", "R4");
      d.put("position", (double) id);
      d.putObject("status").put("value", "active").put("label", "Active");
      d.putObject("oob_ip")
          .put("id", 40 + id)
          .put("address", "192.0.2." + id + "/24")
          .putObject("family")
          .put("value", 4)
          .put("label", "IPv4");
      d.putObject("custom_fields").put("bamel_pool", "gpu");
      d.putArray("tags");
      d.put("last_updated", "2024-03-01T09:00:00.000000Z");
      ObjectNode i = ifaces.addObject();
      i.put("id", 10 + id).put("name", "eno1").put("mgmt_only", false);
      i.putObject("device").put("id", id).put("name", "gpu-0" + id);
      i.put("mac_address", "52:54:00:00:01:0" + id);
      i.putObject("primary_mac_address")
          .put("id", 70 + id)
          .put("mac_address", "52:54:00:00:01:0" + id);
    }
    netbox.stubFor(
        get(urlPathEqualTo("/api/dcim/devices/"))
            .willReturn(
                aResponse()
                    .withHeader("Content-Type", "application/json")
                    .withHeader("API-Version", "4.2")
                    .withBody(page.toString())));
    netbox.stubFor(
        get(urlPathEqualTo("/api/dcim/interfaces/"))
            .willReturn(
                aResponse()
                    .withHeader("Content-Type", "application/json")
                    .withBody(interfaces.toString())));
  }

  @AfterEach
  void stop() {
    netbox.stop();
  }

  private Path config() throws Exception {
    Path token = Files.writeString(dir.resolve("netbox-token"), TOKEN + "\n");
    Path secret = Files.writeString(dir.resolve("webhook-secret"), SECRET);
    return Files.writeString(
        dir.resolve("config.yaml"),
        String.join(
            "\n",
            "components: [api]",
            "http: {host: 127.0.0.1, port: 0}",
            "etcd: {endpoints: [" + ETCD.cluster().endpoints().get(0) + "]}",
            "auth: {anonymousRead: true}",
            "kubernetes: {mode: none}",
            "netbox:",
            "  url: http://127.0.0.1:" + netbox.port(),
            "  tokenFile: " + token,
            "  webhookSecretFile: " + secret,
            "  interval: 10m",
            "  scope: bmc",
            ""));
  }

  private JsonNode getJson(int port, String path) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return Codec.mapper().readTree(r.body());
  }

  private record Run(int code, String out, String err) {}

  private Run sync(Path config, String... more) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    SyncCommand.NetBox command =
        new SyncCommand.NetBox(
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            Map.of());
    String[] args = new String[more.length + 2];
    args[0] = "--config";
    args[1] = config.toString();
    System.arraycopy(more, 0, args, 2, more.length);
    int code = new CommandLine(command).execute(args);
    return new Run(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void theServerPullsTakesWebhooksAndTheCommandPrintsThePlan() throws Exception {
    Path config = config();
    ServerConfig cfg = ConfigLoader.load(config, Map.of(), Map.of());
    try (BamelServer server =
        BamelServer.start(cfg, TokenStore.empty(), Map.of(), Overrides.NONE)) {
      int port = server.port();
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  getJson(port, "/api/v1/sync/netbox/status")
                      .path("lastPull")
                      .path("complete")
                      .asBoolean());
      JsonNode status = getJson(port, "/api/v1/sync/netbox/status");
      assertThat(status.path("leader").asBoolean()).isTrue();
      assertThat(status.at("/lastPull/created").asInt()).isEqualTo(3);
      assertThat(status.at("/lastPull/netboxVersion").asText()).isEqualTo("4.2");
      JsonNode node = getJson(port, "/api/v1/nodes/gpu-01");
      assertThat(node.at("/spec/mgmtAddress").asText()).isEqualTo("192.0.2.1");
      assertThat(node.at("/spec/macAddress").asText()).isEqualTo("52:54:00:00:01:01");
      assertThat(node.at("/spec/pool").asText()).isEqualTo("gpu");
      assertThat(netbox.getAllServeEvents())
          .allSatisfy(
              e ->
                  assertThat(e.getRequest().getHeader("Authorization"))
                      .isEqualTo("Bearer " + TOKEN));
      HttpResponse<String> metrics =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(metrics.body()).contains("bamel_netbox_pulls_total{result=\"complete\"} 1.0");

      byte[] hook =
          ("{\"event\":\"updated\",\"model\":\"site\",\"request_id\":\"r1\",\"data\":{\"id\":1}}")
              .getBytes(StandardCharsets.UTF_8);
      HttpResponse<String> taken =
          http.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + port + "/api/v1/webhooks/netbox"))
                  .header("Content-Type", "application/json")
                  .header(
                      "X-Hook-Signature",
                      WebhookSignature.sign(WebhookSecret.of(SECRET, "t"), hook))
                  .POST(HttpRequest.BodyPublishers.ofByteArray(hook))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(taken.statusCode()).isEqualTo(202);

      long before = ETCD.cluster().revision();
      Run plan = sync(config, "--once", "--dry-run");
      assertThat(plan.code()).as(plan.err()).isZero();
      assertThat(plan.out())
          .contains("NetBox 4.2 (offset paging): 3 devices, every page read")
          .contains("dry run: nothing was written")
          .contains("summary: 0 to create, 0 to update, 3 unchanged, 0 to delete, 0 rejected");
      Run refused = sync(config, "--once", "--leader-wait", "1s");
      assertThat(refused.code()).isEqualTo(1);
      assertThat(refused.err()).contains("another process leads netbox-sync");
      assertThat(ETCD.cluster().revision()).isEqualTo(before);
    }

    // With the server gone, the command pulls itself, fenced by its own leadership.
    netbox.stubFor(
        get(urlPathEqualTo("/api/dcim/devices/"))
            .willReturn(
                aResponse()
                    .withHeader("Content-Type", "application/json")
                    .withHeader("API-Version", "4.2")
                    .withBody("{\"count\":0,\"next\":null,\"previous\":null,\"results\":[]}")));
    Run once = sync(config, "--once", "--output", "json");
    JsonNode report = Codec.mapper().readTree(once.out());
    assertThat(report.path("complete").asBoolean()).isTrue();
    assertThat(report.at("/sync/rejected/0/reason").asText())
        .contains("NetBox listed no device at all");
  }
}
