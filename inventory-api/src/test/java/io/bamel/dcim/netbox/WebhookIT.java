package io.bamel.dcim.netbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.inventory.api.ApiOptions;
import io.bamel.inventory.api.InventoryApi;
import io.bamel.inventory.api.security.Access;
import io.bamel.inventory.api.security.TokenStore;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.testing.EtcdExtension;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * NetBox webhooks through the API over HTTP, applied to a real etcd: the real {@link NetBoxSource}
 * behind the API's NetBox route, so each refusal's status code is checked end to end. It lives in
 * the API's tests (the API depends on dcim-netbox, never the reverse), in the NetBox package for
 * the NetBox module's test helpers ({@link Inventory}, {@link FakeNetBox}).
 */
class WebhookIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  private static final WebhookSecret SECRET = WebhookSecret.of("webhook-secret-for-tests", "test");
  private static final String READER = "test-read-token";

  private Inventory inventory;
  private FakeNetBox netbox;
  private NetBoxSource source;
  private InventoryApi api;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    inventory = new Inventory(ETCD.cluster());
    netbox = new FakeNetBox(FakeNetBox.Version.V4_2);
    netbox.serveInterfaces(List.of(netbox.device(7)));
    NetBoxSettings settings =
        Inventory.settings(
            netbox.url(), NetBoxSettings.Scope.BMC, true, NetBoxSettings.ReportBack.OFF, SECRET);
    // No election: this process takes webhooks only (as an API replica that does not lead).
    source =
        new NetBoxSource(
                settings,
                Inventory.client(settings),
                inventory.store,
                inventory.cache,
                null,
                inventory.registry,
                Clock.systemUTC())
            .start();
    TokenStore tokens =
        TokenStore.of(
            List.of(new TokenStore.Entry("reader", Access.READ, TokenStore.hash(READER))));
    api =
        InventoryApi.create(
                inventory.store,
                inventory.cache,
                tokens,
                ApiOptions.DEFAULTS,
                new PrometheusRegistry())
            .start("127.0.0.1", 0)
            .netbox(source);
  }

  @AfterEach
  void stop() {
    api.close();
    source.close();
    netbox.close();
    inventory.close();
  }

  private static byte[] webhook(
      String event, JsonNode data, String requestId, String timestamp, String model) {
    ObjectNode body = Codec.mapper().createObjectNode();
    body.put("event", event);
    body.put("timestamp", timestamp);
    body.put("model", model);
    body.put("username", "jdoe");
    body.put("request_id", requestId);
    body.set("data", data);
    ObjectNode snapshots = body.putObject("snapshots");
    snapshots.putNull("prechange");
    snapshots.putObject("postchange").put("name", data.path("name").asText());
    return body.toString().getBytes(StandardCharsets.UTF_8);
  }

  private ObjectNode device(String rack, String lastUpdated) {
    ObjectNode d = netbox.device(7);
    ((ObjectNode) d.get("rack")).put("name", rack).put("display", rack);
    d.put("last_updated", lastUpdated);
    return d;
  }

  private HttpResponse<String> post(byte[] body, String signature) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + api.port() + "/api/v1/webhooks/netbox"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (signature != null) {
      b.header("X-Hook-Signature", signature);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> signed(byte[] body) throws Exception {
    return post(body, WebhookSignature.sign(SECRET, body));
  }

  private void settle() {
    await().atMost(Duration.ofSeconds(20)).until(source::idle);
  }

  private Map<String, Node> nodes() throws Exception {
    settle();
    return inventory.nodes();
  }

  @Test
  void aMissingOrWrongSignatureIs401AndChangesNothing() throws Exception {
    byte[] body = webhook("created", device("R0", "2024-03-01T09:00:00Z"), "r-1", "now", "device");
    long before = inventory.revision();
    byte[] other = webhook("created", device("R1", "2024-03-01T09:00:00Z"), "r-1", "now", "device");
    String wrongKey = WebhookSignature.sign(WebhookSecret.of("another-secret", "test"), body);
    for (String signature :
        java.util.Arrays.asList(null, "", "00", wrongKey, WebhookSignature.sign(SECRET, other))) {
      HttpResponse<String> r = post(body, signature);
      assertThat(r.statusCode()).as("signature %s", signature).isEqualTo(401);
      assertThat(r.headers().firstValue("Content-Type").orElse(""))
          .startsWith("application/problem+json");
      assertThat(r.body()).contains("X-Hook-Signature").doesNotContain("webhook-secret-for-tests");
    }
    Thread.sleep(300);
    assertThat(nodes()).isEmpty();
    assertThat(inventory.revision()).isEqualTo(before);
    assertThat(source.status().webhooks().badSignatures()).isEqualTo(5);
    assertThat(source.status().webhooks().queued()).isZero();
  }

  @Test
  void replayedAndLateEventsChangeNothing() throws Exception {
    byte[] created =
        webhook("created", device("R0", "2024-03-01T09:00:00.000001Z"), "req-a", "t", "device");
    HttpResponse<String> first = signed(created);
    assertThat(first.statusCode()).isEqualTo(202);
    assertThat(first.body()).contains("\"queued\":true");
    Node node = nodes().get("r00-u007");
    assertThat(node.spec().rack()).isEqualTo("R0");
    assertThat(node.spec().macAddress()).isEqualTo(FakeNetBox.mac(7, 1).toLowerCase());
    assertThat(node.spec().mgmtAddress()).isEqualTo("[2001:db8::7]");
    long afterCreate = inventory.revision();

    // NetBox delivers the same webhook again (a retry): dropped on receipt.
    HttpResponse<String> replay = signed(created);
    assertThat(replay.statusCode()).isEqualTo(202);
    assertThat(replay.body()).contains("\"queued\":false").contains("received already");
    assertThat(nodes()).hasSize(1);
    assertThat(inventory.revision()).isEqualTo(afterCreate);

    // A newer update applies.
    signed(webhook("updated", device("R9", "2024-03-01T10:00:00Z"), "req-b", "t", "device"));
    assertThat(nodes().get("r00-u007").spec().rack()).isEqualTo("R9");
    long afterUpdate = inventory.revision();

    // An older update arriving late, and the same update again under another request id
    // (redelivered from NetBox's queue), change nothing.
    signed(webhook("updated", device("R5", "2024-03-01T09:30:00Z"), "req-c", "t", "device"));
    signed(webhook("updated", device("R9", "2024-03-01T10:00:00Z"), "req-d", "t", "device"));
    signed(webhook("created", device("R0", "2024-03-01T09:00:00.000001Z"), "req-e", "t", "device"));
    Map<String, Node> after = nodes();
    assertThat(after.get("r00-u007").spec().rack()).isEqualTo("R9");
    assertThat(inventory.revision()).isEqualTo(afterUpdate);
    NetBoxStatus.Webhooks w = source.status().webhooks();
    assertThat(w.applied()).isEqualTo(2);
    assertThat(w.unchanged()).isEqualTo(3);
    assertThat(w.duplicates()).isEqualTo(1);

    // The event names who changed what in NetBox: the node's events record the request.
    assertThat(inventory.store.events("r00-u007"))
        .extracting(e -> e.requestId())
        .containsExactly("netbox-req-a", "netbox-req-b");
  }

  @Test
  void aDeletedDeviceGoesAndALateCreateDoesNotBringItBack() throws Exception {
    signed(webhook("created", device("R0", "2024-03-01T09:00:00Z"), "req-1", "t", "device"));
    assertThat(nodes()).containsKey("r00-u007");
    signed(webhook("deleted", device("R0", "2024-03-01T09:00:00Z"), "req-2", "t", "device"));
    assertThat(nodes()).isEmpty();
    long before = inventory.revision();
    signed(webhook("updated", device("R3", "2024-03-01T11:00:00Z"), "req-3", "t", "device"));
    assertThat(nodes()).isEmpty();
    assertThat(inventory.revision()).isEqualTo(before);
  }

  @Test
  void otherModelsAreIgnoredAndTheStatusShowsTheCounts() throws Exception {
    ObjectNode site = Codec.mapper().createObjectNode().put("id", 1).put("name", "Amsterdam 1");
    HttpResponse<String> r = signed(webhook("updated", site, "req-s", "t", "site"));
    assertThat(r.statusCode()).isEqualTo(202);
    assertThat(r.body()).contains("\"queued\":false").contains("not site");
    HttpResponse<String> bad = signed("{\"event\":\"exploded\"}".getBytes(StandardCharsets.UTF_8));
    assertThat(bad.statusCode()).isEqualTo(400);

    HttpResponse<String> status =
        http.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + api.port() + "/api/v1/sync/netbox/status"))
                .header("Authorization", "Bearer " + READER)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(status.statusCode()).isEqualTo(200);
    JsonNode json = Codec.mapper().readTree(status.body());
    assertThat(json.path("url").asText()).isEqualTo(netbox.url().toString());
    assertThat(json.path("leader").asBoolean()).isFalse();
    assertThat(json.path("webhooks").path("enabled").asBoolean()).isTrue();
    assertThat(json.path("webhooks").path("received").asLong()).isEqualTo(2);
    assertThat(json.path("webhooks").path("ignored").asLong()).isEqualTo(1);
  }

  @Test
  void withoutASourceBothRoutesAre404() throws Exception {
    api.netbox(null);
    byte[] body = webhook("created", device("R0", "2024-03-01T09:00:00Z"), "r", "t", "device");
    assertThat(signed(body).statusCode()).isEqualTo(404);
    assertThat(signed(body).body()).contains("netbox.url");
  }
}
