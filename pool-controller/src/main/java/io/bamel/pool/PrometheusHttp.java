package io.bamel.pool;

import io.bamel.net.OutboundPolicy;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * Instant queries over the Prometheus HTTP API: {@code GET <base>/api/v1/query?query=<promql>},
 * bounded by a timeout; a non-2xx answer other than a Prometheus error body, a timeout, or a
 * connection failure is an {@link IOException}; a redirect is not followed, and one to another
 * origin is a {@link io.bamel.net.RedirectRefusedException} ({@link OutboundPolicy}). Thread-safe.
 */
public final class PrometheusHttp implements InstantQuery {

  private final URI base;
  private final Duration timeout;
  private final HttpClient client;

  /** Queries the Prometheus at {@code base} (such as {@code http://prometheus:9090}). */
  public PrometheusHttp(URI base, Duration timeout) {
    String text = base.toString();
    this.base = URI.create(text.endsWith("/") ? text : text + "/");
    this.timeout = timeout;
    // No redirect followed (one to another origin is refused), no proxy: OutboundPolicy.
    this.client = OutboundPolicy.apply(HttpClient.newBuilder().connectTimeout(timeout)).build();
  }

  @Override
  public List<Double> query(String promql) throws IOException {
    URI uri =
        base.resolve("api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
    HttpRequest request =
        HttpRequest.newBuilder(uri)
            .timeout(timeout)
            .header("Accept", "application/json")
            .GET()
            .build();
    HttpResponse<String> response;
    try {
      response = client.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    OutboundPolicy.checkAnswer(response);
    int code = response.statusCode();
    String body = response.body();
    if (code / 100 != 2 && (body == null || !body.contains("\"status\""))) {
      throw new IOException("Prometheus answered HTTP " + code);
    }
    return PromResponse.values(body);
  }
}
