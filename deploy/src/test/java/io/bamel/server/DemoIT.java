package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code bamel demo} shows a scale-up and a scale-down within its first minutes, then stops. */
class DemoIT {

  @Test
  void scalesUpAndDownThenExitsZeroOnSigterm() throws Exception {
    try (BamelProcess demo =
        BamelProcess.start(Map.of(), "demo", "--port", "0", "--period", "40s")) {
      int port = demo.port(Duration.ofSeconds(90));
      String token = demo.valueAfter("admin token:", Duration.ofSeconds(10));
      demo.await(
          l -> l.contains("pool decision") && l.contains("direction=up"),
          Duration.ofSeconds(60),
          "a scale-up");
      demo.await(
          l -> l.contains("pool decision") && l.contains("direction=down"),
          Duration.ofSeconds(240),
          "a scale-down");
      HttpResponse<String> nodes =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + port + "/api/v1/nodes?state=ready"))
                      .header("Authorization", "Bearer " + token)
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(nodes.statusCode()).isEqualTo(200);
      assertThat(nodes.body()).contains("\"state\":\"ready\"");
      HttpResponse<String> metrics =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                      .header("Authorization", "Bearer " + token)
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(metrics.body())
          .contains("bamel_scale_decisions_total", "bamel_power_operations_total");
      assertThat(demo.terminate(Duration.ofSeconds(60))).isZero();
    }
  }
}
