package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.testing.EtcdExtension;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class MetricsIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  @Test
  void requestCountersByRouteAndInventoryGaugesFromTheCache() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      f.json("PUT", "/api/v1/nodes/n001", Json.of(Json.spec(1, "gpu")));
      f.json("PUT", "/api/v1/nodes/n002", Json.of(Json.spec(2, "gpu")));
      f.get("/api/v1/nodes/n001");
      f.get("/api/v1/nodes/n404");
      f.get("/no/such/route");
      ApiFixture.Response text = f.get("/metrics");
      assertThat(text.status()).isEqualTo(200);
      assertThat(text.contentType()).startsWith("text/plain");
      assertThat(text.body())
          .contains(
              "bamel_http_requests_total{code=\"201\",method=\"PUT\",route=\"/api/v1/nodes/{id}\"} 2")
          .contains(
              "bamel_http_requests_total{code=\"404\",method=\"GET\",route=\"/api/v1/nodes/{id}\"} 1")
          .contains("route=\"unmatched\"")
          .contains("bamel_http_request_duration_seconds_bucket{")
          .contains("bamel_nodes{pool=\"gpu\",state=\"unknown\"} 2.0")
          .as("every state is exported, 0 included")
          .contains("bamel_nodes{pool=\"\",state=\"error\"} 0.0")
          .doesNotContain("n404");
      ApiFixture.Response open =
          f.send(
              "GET",
              "/metrics",
              ApiFixture.READ,
              null,
              null,
              Map.of("Accept", "application/openmetrics-text; version=1.0.0; charset=utf-8"));
      assertThat(open.contentType()).startsWith("application/openmetrics-text");
      assertThat(open.body()).contains("# TYPE bamel_http_requests counter").endsWith("# EOF\n");
    }
  }
}
