package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.model.PoolStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PoolsApiIT extends ApiFixtureTests {

  @Test
  void putGetPatchDeleteAPool() {
    ApiFixture.Response created =
        f.json("PUT", "/api/v1/pools/gpu", "{\"minNodes\":1,\"maxNodes\":8}");
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    String etag = created.header("ETag");
    assertThat(f.get("/api/v1/pools/gpu").json().at("/config/maxNodes").asInt()).isEqualTo(8);
    ApiFixture.Response patched =
        f.json("PATCH", "/api/v1/pools/gpu", "{\"maxNodes\":10}", Map.of("If-Match", etag));
    assertThat(patched.status()).as(patched.toString()).isEqualTo(200);
    assertThat(patched.json().at("/config/maxNodes").asInt()).isEqualTo(10);
    assertThat(patched.json().at("/config/minNodes").asInt()).isEqualTo(1);
    assertThat(
            f.json("PATCH", "/api/v1/pools/gpu", "{\"maxNodes\":11}", Map.of("If-Match", etag))
                .status())
        .isEqualTo(412);
    assertThat(f.json("PUT", "/api/v1/pools/gpu", "{\"minNodes\":5,\"maxNodes\":2}").status())
        .isEqualTo(400);
    assertThat(f.delete("/api/v1/pools/gpu", Map.of("If-Match", etag)).status()).isEqualTo(412);
    assertThat(f.delete("/api/v1/pools/gpu", Map.of()).status()).isEqualTo(204);
    assertThat(f.get("/api/v1/pools/gpu").status()).isEqualTo(404);
    assertThat(f.delete("/api/v1/pools/gpu", Map.of()).status()).isEqualTo(404);
  }

  @Test
  void listShowsMemberCountsAndDeleteRefusesAPoolWithMembers() {
    f.json("PUT", "/api/v1/pools/a", "{\"maxNodes\":4}");
    f.json("PUT", "/api/v1/pools/b", "{}");
    for (int i = 0; i < 3; i++) {
      f.json("PUT", "/api/v1/nodes/" + Json.id(i), Json.of(Json.spec(i, "a")));
    }
    ApiFixture.Response list = f.get("/api/v1/pools", ApiFixture.READ);
    assertThat(list.status()).isEqualTo(200);
    assertThat(list.json().get("items"))
        .extracting(p -> p.get("name").asText())
        .containsExactly("a", "b");
    assertThat(list.json().at("/items/0/memberCount").asInt()).isEqualTo(3);
    assertThat(list.json().at("/items/1/memberCount").asInt()).isEqualTo(0);
    assertThat(f.get("/api/v1/pools/a").json().get("members")).hasSize(3);
    ApiFixture.Response refused = f.delete("/api/v1/pools/a", Map.of());
    assertThat(refused.status()).isEqualTo(409);
    assertThat(refused.json().get("detail").asText()).contains("n000");
  }

  @Test
  void listAndGetShowThePoolStatusTheControllerWrote() throws InterruptedException {
    f.json("PUT", "/api/v1/pools/a", "{\"maxNodes\":4}");
    f.json("PUT", "/api/v1/pools/b", "{}");
    long written =
        f.store.putPoolStatus(
            "a",
            PoolStatus.builder()
                .readyNodes(2)
                .desiredNodes(3)
                .utilization(Map.of("cpu", 0.75))
                .lastScaleTime(Instant.parse("2026-11-23T10:00:00Z"))
                .build(),
            null);
    assertThat(f.cache.awaitRevision(written, Duration.ofSeconds(10))).isTrue();

    ApiFixture.Response list = f.get("/api/v1/pools", ApiFixture.READ);
    assertThat(list.status()).isEqualTo(200);
    JsonNode a = list.json().at("/items/0");
    assertThat(a.get("name").asText()).isEqualTo("a");
    assertThat(a.at("/status/readyNodes").asInt()).isEqualTo(2);
    assertThat(a.at("/status/desiredNodes").asInt()).isEqualTo(3);
    assertThat(a.at("/status/utilization/cpu").asDouble()).isEqualTo(0.75);
    assertThat(a.at("/status/lastScaleTime").asText()).isEqualTo("2026-11-23T10:00:00Z");
    assertThat(a.get("statusRevision").asLong()).isEqualTo(written);
    JsonNode b = list.json().at("/items/1");
    assertThat(b.get("name").asText()).isEqualTo("b");
    assertThat(b.has("status")).as("a pool no controller has written has no status").isFalse();

    JsonNode one = f.get("/api/v1/pools/a").json();
    assertThat(one.at("/status/desiredNodes").asInt()).isEqualTo(3);
    assertThat(one.get("statusRevision").asLong()).isEqualTo(written);
  }

  @Test
  void poolWritesNeedTheAdminScope() {
    ApiFixture.Response r =
        f.send(
            "PUT",
            "/api/v1/pools/x",
            ApiFixture.WRITE,
            "application/json",
            "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8),
            Map.of());
    assertThat(r.status()).isEqualTo(403);
  }
}
