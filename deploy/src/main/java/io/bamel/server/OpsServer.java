package io.bamel.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.bamel.inventory.api.Access;
import io.bamel.inventory.api.TokenStore;
import io.bamel.inventory.metrics.MetricsEndpoint;
import io.bamel.inventory.store.InventoryCache;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The endpoints every {@code bamel server} serves even without the {@code api} component (a
 * controller-only deployment): {@code /healthz} (alive), {@code /readyz} (the cache has synced) and
 * {@code /metrics}. With the API these come from the API itself.
 */
final class OpsServer implements AutoCloseable {

  private final HttpServer server;

  OpsServer(
      String host,
      int port,
      InventoryCache cache,
      MetricsEndpoint metrics,
      TokenStore tokens,
      boolean anonymousRead)
      throws IOException {
    server = HttpServer.create(new InetSocketAddress(host, port), 16);
    server.createContext("/healthz", ex -> send(ex, 200, "text/plain", "ok\n"));
    server.createContext(
        "/readyz",
        ex ->
            send(
                ex,
                cache.synced() ? 200 : 503,
                "text/plain",
                cache.synced() ? "ready\n" : "inventory cache not synced\n"));
    server.createContext(
        "/metrics",
        ex -> {
          if (!anonymousRead
              && !readAllowed(tokens, ex.getRequestHeaders().getFirst("Authorization"))) {
            send(ex, 401, "text/plain", "send Authorization: Bearer <token> of read scope\n");
            return;
          }
          MetricsEndpoint.Scrape scrape = metrics.scrape(ex.getRequestHeaders().getFirst("Accept"));
          ex.getResponseHeaders().set("Content-Type", scrape.contentType());
          ex.sendResponseHeaders(200, scrape.body().length);
          try (OutputStream out = ex.getResponseBody()) {
            out.write(scrape.body());
          }
        });
    server.start();
  }

  private static boolean readAllowed(TokenStore tokens, String header) {
    if (header == null || !header.startsWith("Bearer ")) {
      return false;
    }
    return tokens
        .authenticate(header.substring("Bearer ".length()).strip())
        .map(p -> Access.READ.grantedBy(p.scope()))
        .orElse(false);
  }

  int port() {
    return server.getAddress().getPort();
  }

  private static void send(HttpExchange ex, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", type);
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(1);
  }
}
