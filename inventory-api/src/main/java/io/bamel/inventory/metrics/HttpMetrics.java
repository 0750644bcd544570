package io.bamel.inventory.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;

/**
 * The API's request metrics: {@code bamel_http_requests_total{method,route,code}} and {@code
 * bamel_http_request_duration_seconds{method,route}}. {@code route} is the route's template (such
 * as {@code /api/v1/nodes/{id}}), never the raw path, so ids do not multiply series; requests that
 * match no route count as {@code unmatched}.
 */
public final class HttpMetrics {

  /** The route label of requests that match no route. */
  public static final String UNMATCHED = "unmatched";

  private final Counter requests;
  private final Histogram duration;

  /** Registers the metrics in {@code registry}. */
  public HttpMetrics(PrometheusRegistry registry) {
    this.requests =
        Counter.builder()
            .name("bamel_http_requests_total")
            .help("HTTP requests served by the inventory API, by method, route and status code.")
            .labelNames("method", "route", "code")
            .register(registry);
    this.duration =
        Histogram.builder()
            .name("bamel_http_request_duration_seconds")
            .help("Time to serve an HTTP request of the inventory API, by method and route.")
            .unit(Unit.SECONDS)
            .classicOnly()
            .classicUpperBounds(
                0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
            .labelNames("method", "route")
            .register(registry);
  }

  /** Records one request. */
  public void record(String method, String route, int code, double seconds) {
    requests.labelValues(method, route, Integer.toString(code)).inc();
    duration.labelValues(method, route).observe(seconds);
  }
}
