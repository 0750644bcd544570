package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.testing.EtcdExtension;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code /readyz}: 503 until the cache has listed etcd, and while etcd does not answer. */
class ReadinessIT {

  // An instance field: a fresh etcd per test, since one test stops it.
  @RegisterExtension final EtcdExtension etcd = EtcdExtension.singleNode();

  private static ApiFixture.Response readyz(ApiFixture f) {
    return f.send("GET", "/readyz", null, null, null, Map.of());
  }

  @Test
  void notReadyUntilTheCacheHasSynced() throws Exception {
    try (ApiFixture f = ApiFixture.withoutCache(etcd.cluster())) {
      ApiFixture.Response r = readyz(f);
      assertThat(r.status()).isEqualTo(503);
      assertThat(r.contentType()).startsWith("application/problem+json");
      assertThat(r.json().get("detail").asText()).contains("cache has not listed etcd");
      assertThat(f.send("GET", "/healthz", null, null, null, Map.of()).status()).isEqualTo(200);
      assertThat(f.get("/api/v1/nodes").status()).isEqualTo(503);

      f.startCache();
      ApiFixture.Response ready = readyz(f);
      assertThat(ready.status()).isEqualTo(200);
      assertThat(ready.json().get("status").asText()).isEqualTo("ready");
    }
  }

  @Test
  void notReadyWhileEtcdIsDownAndReadyAgainWhenItIsBack() throws Exception {
    try (ApiFixture f = ApiFixture.start(etcd.cluster())) {
      f.json("PUT", "/api/v1/nodes/n001", Json.of(Json.spec(1, "a")));
      assertThat(readyz(f).status()).isEqualTo(200);

      etcd.cluster().stop(0);
      long start = System.nanoTime();
      ApiFixture.Response down = readyz(f);
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertThat(down.status()).as(down.toString()).isEqualTo(503);
      assertThat(down.contentType()).startsWith("application/problem+json");
      assertThat(down.json().get("detail").asText()).contains("etcd");
      assertThat(took).as("a probe must not hang").isLessThan(Duration.ofSeconds(5));
      // Reads from the cache still answer while etcd is away.
      assertThat(f.get("/api/v1/nodes/n001").status()).isEqualTo(200);

      etcd.cluster().restart(0);
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      int status = readyz(f).status();
      while (status != 200 && System.nanoTime() < deadline) {
        Thread.sleep(200);
        status = readyz(f).status();
      }
      assertThat(status).isEqualTo(200);
    }
  }
}
