package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.testing.EtcdExtension;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class AuthIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  private static int status(ApiFixture f, String method, String path, String token) {
    byte[] body =
        method.equals("GET") || method.equals("DELETE")
            ? null
            : (path.contains("power") ? "{\"state\":\"off\"}" : Json.of(Json.spec(1, "a")))
                .getBytes(StandardCharsets.UTF_8);
    return f.send(method, path, token, body == null ? null : "application/json", body, Map.of())
        .status();
  }

  @Test
  void scopesAreCumulativeAndEnforcedPerRoute() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      f.json("PUT", "/api/v1/nodes/n001", Json.of(Json.spec(1, "a")));
      // No token, an unknown token: 401 with a Bearer challenge.
      ApiFixture.Response none = f.send("GET", "/api/v1/nodes", null, null, null, Map.of());
      assertThat(none.status()).isEqualTo(401);
      assertThat(none.header("WWW-Authenticate")).startsWith("Bearer");
      assertThat(status(f, "GET", "/api/v1/nodes", "wrong")).isEqualTo(401);
      // read: reads only.
      assertThat(status(f, "GET", "/api/v1/nodes", ApiFixture.READ)).isEqualTo(200);
      assertThat(status(f, "GET", "/metrics", ApiFixture.READ)).isEqualTo(200);
      assertThat(status(f, "PUT", "/api/v1/nodes/n001", ApiFixture.READ)).isEqualTo(403);
      assertThat(status(f, "POST", "/api/v1/nodes/n001/power", ApiFixture.READ)).isEqualTo(403);
      // write: node writes, not pools.
      assertThat(status(f, "PUT", "/api/v1/nodes/n001", ApiFixture.WRITE)).isEqualTo(200);
      assertThat(status(f, "GET", "/api/v1/nodes/n001", ApiFixture.WRITE)).isEqualTo(200);
      assertThat(
              f.send(
                      "PUT",
                      "/api/v1/pools/a",
                      ApiFixture.WRITE,
                      "application/json",
                      "{}".getBytes(StandardCharsets.UTF_8),
                      Map.of())
                  .status())
          .isEqualTo(403);
      // bmc: what write can, not pools.
      assertThat(status(f, "PUT", "/api/v1/nodes/n001", ApiFixture.BMC)).isEqualTo(200);
      assertThat(
              f.send(
                      "PUT",
                      "/api/v1/pools/a",
                      ApiFixture.BMC,
                      "application/json",
                      "{}".getBytes(StandardCharsets.UTF_8),
                      Map.of())
                  .status())
          .isEqualTo(403);
      // admin: everything.
      assertThat(
              f.send(
                      "PUT",
                      "/api/v1/pools/a",
                      ApiFixture.ADMIN,
                      "application/json",
                      "{}".getBytes(StandardCharsets.UTF_8),
                      Map.of())
                  .status())
          .isEqualTo(201);
      // Public routes need nothing.
      assertThat(status(f, "GET", "/healthz", null)).isEqualTo(200);
      assertThat(status(f, "GET", "/readyz", null)).isEqualTo(200);
      assertThat(status(f, "GET", "/openapi.json", null)).isEqualTo(200);
      assertThat(status(f, "GET", "/docs", null)).isEqualTo(200);
    }
  }

  @Test
  void anonymousReadOnlyWhenConfigured() throws Exception {
    try (ApiFixture f =
        ApiFixture.start(ETCD.cluster(), ApiOptions.DEFAULTS.withAnonymousRead(true))) {
      assertThat(status(f, "GET", "/api/v1/nodes", null)).isEqualTo(200);
      assertThat(status(f, "PUT", "/api/v1/nodes/n001", null)).isEqualTo(401);
      // A wrong token is refused even when anonymous reading is allowed.
      assertThat(status(f, "GET", "/api/v1/nodes", "wrong")).isEqualTo(401);
    }
  }

  @Test
  void tokensNeverAppearInResponsesOrEvents() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      f.json("PUT", "/api/v1/nodes/n001", Json.of(Json.spec(1, "a")));
      String events = f.get("/api/v1/nodes/n001/events").body();
      assertThat(events).contains("\"principal\":\"ops\"").doesNotContain(ApiFixture.ADMIN);
      String problem =
          f.send("GET", "/api/v1/nodes", "bad-" + ApiFixture.ADMIN, null, null, Map.of()).body();
      assertThat(problem).doesNotContain(ApiFixture.ADMIN);
    }
  }
}
