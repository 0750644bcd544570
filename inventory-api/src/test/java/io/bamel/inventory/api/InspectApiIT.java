package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeHardware;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.inventory.testing.EtcdExtension;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code POST /api/v1/nodes/{id}/inspect}: 202 with the request written to {@code
 * status.inspectRequestedAt} and an event; a pending request answered again without a write; 404,
 * 403 and 409 (an interface that cannot inspect) change nothing; the stored result is readable at
 * {@code status.hardware} through GET, which is what {@code bamel inspect} polls.
 */
class InspectApiIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  private static ApiFixture.Response post(ApiFixture f, String token, String path) {
    return f.send("POST", path, token, null, null, Map.of());
  }

  @Test
  void acceptsARequestOnceAndShowsTheStoredResult() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      f.store.createNode("n001", Json.spec(1, "a"), null);
      f.store.createNode(
          "n002",
          Json.spec(2, "a").toBuilder()
              .powerInterface(PowerInterface.of("wol"))
              .mgmtAddress("192.0.2.2")
              .bmcCredentials(null)
              .build()
              .withSettings("wakeOnLan", java.util.Map.of("probePort", 22)),
          null);
      long before = f.revision();

      assertThat(post(f, ApiFixture.WRITE, "/api/v1/nodes/n404/inspect").status()).isEqualTo(404);
      assertThat(post(f, ApiFixture.READ, "/api/v1/nodes/n001/inspect").status()).isEqualTo(403);
      ApiFixture.Response wol = post(f, ApiFixture.WRITE, "/api/v1/nodes/n002/inspect");
      assertThat(wol.status()).as(wol.toString()).isEqualTo(409);
      assertThat(wol.json().path("detail").asText()).contains("wol").contains("cannot inspect");
      assertThat(f.revision()).as("nothing written").isEqualTo(before);

      ApiFixture.Response accepted = post(f, ApiFixture.WRITE, "/api/v1/nodes/n001/inspect");
      assertThat(accepted.status()).as(accepted.toString()).isEqualTo(202);
      assertThat(accepted.header("Location")).isEqualTo("/api/v1/nodes/n001");
      JsonNode body = accepted.json();
      assertThat(body.path("id").asText()).isEqualTo("n001");
      assertThat(body.path("inspectRequestedAt").isTextual()).isTrue();
      assertThat(body.path("inspectedAt").isMissingNode() || body.path("inspectedAt").isNull())
          .isTrue();
      Node stored = f.store.getNode("n001").orElseThrow();
      assertThat(stored.status().inspectRequestedAt())
          .isEqualTo(Instant.parse(body.path("inspectRequestedAt").asText()));
      JsonNode events = f.get("/api/v1/nodes/n001/events").json().get("items");
      assertThat(events.get(events.size() - 1).path("reason").asText())
          .isEqualTo("inspect-requested");

      long pending = f.revision();
      ApiFixture.Response again = post(f, ApiFixture.WRITE, "/api/v1/nodes/n001/inspect");
      assertThat(again.status()).isEqualTo(202);
      assertThat(again.json().path("inspectRequestedAt").asText())
          .isEqualTo(body.path("inspectRequestedAt").asText());
      assertThat(f.revision()).as("a pending request is not written again").isEqualTo(pending);

      // what the node controller writes when done: the result, the request cleared
      Instant inspectedAt = Instant.parse("2026-11-25T12:00:00Z");
      NodeHardware hw =
          new NodeHardware(
              inspectedAt,
              "Dell Inc.",
              "PowerEdge R750",
              "SN100001",
              "1.10.2",
              new NodeHardware.Cpu("Xeon", 2),
              262144L,
              List.of(new NodeHardware.Gpu("A100", 2)),
              List.of("0c:c4:7a:00:00:01"),
              null,
              null);
      f.store.putStatus(
          "n001",
          stored.statusRevision(),
          stored.status().toBuilder().inspectRequestedAt(null).hardware(hw).build(),
          null,
          null);
      JsonNode status =
          awaitStatus(f, "/api/v1/nodes/n001", s -> s.path("hardware").isObject()).path("status");
      JsonNode hardware = status.path("hardware");
      assertThat(status.has("inspectRequestedAt")).isFalse();
      assertThat(hardware.path("inspectedAt").asText()).isEqualTo("2026-11-25T12:00:00Z");
      assertThat(hardware.path("vendor").asText()).isEqualTo("Dell Inc.");
      assertThat(hardware.path("cpu").path("count").asInt()).isEqualTo(2);
      assertThat(hardware.path("memoryMiB").asLong()).isEqualTo(262144L);
      assertThat(hardware.path("gpus").get(0).path("count").asInt()).isEqualTo(2);
      assertThat(hardware.path("macs").get(0).asText()).isEqualTo("0c:c4:7a:00:00:01");

      ApiFixture.Response next = post(f, ApiFixture.WRITE, "/api/v1/nodes/n001/inspect");
      assertThat(next.json().path("inspectedAt").asText()).isEqualTo("2026-11-25T12:00:00Z");
    }
  }

  private static JsonNode awaitStatus(
      ApiFixture f, String path, java.util.function.Predicate<JsonNode> ready)
      throws InterruptedException {
    for (int i = 0; i < 100; i++) {
      JsonNode node = f.get(path).json();
      if (ready.test(node.path("status"))) {
        return node;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("status never ready at " + path);
  }
}
