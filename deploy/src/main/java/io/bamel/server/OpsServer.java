package io.bamel.server;

import io.bamel.inventory.api.ApiOptions;
import io.bamel.inventory.api.http.HttpListener;
import io.bamel.inventory.api.security.Access;
import io.bamel.inventory.api.security.TokenStore;
import io.bamel.inventory.metrics.MetricsEndpoint;
import io.bamel.inventory.store.InventoryCache;
import io.javalin.http.Context;

/**
 * The endpoints every {@code bamel server} serves even without the {@code api} component (a
 * controller-only deployment): {@code /healthz} (alive), {@code /readyz} (the cache has synced) and
 * {@code /metrics} (a read-scope token unless anonymous read is on). With the API these come from
 * the API itself. It listens through the API's {@link HttpListener}, so it has the API's TLS
 * ({@code http.tls}, client certificates, reloading), connection limit and slow-client limits.
 */
final class OpsServer implements AutoCloseable {

  private final HttpListener listener;

  /**
   * Starts serving on {@code host}:{@code port}.
   *
   * @throws IllegalArgumentException when the TLS files of {@code connections} cannot be used
   */
  OpsServer(
      String host,
      int port,
      ApiOptions.Connections connections,
      InventoryCache cache,
      MetricsEndpoint metrics,
      TokenStore tokens,
      boolean anonymousRead) {
    listener =
        new HttpListener(
            connections,
            config ->
                config.router.mount(
                    r -> {
                      r.get("/healthz", ctx -> text(ctx, 200, "ok\n"));
                      r.get(
                          "/readyz",
                          ctx -> {
                            boolean synced = cache.synced();
                            text(
                                ctx,
                                synced ? 200 : 503,
                                synced ? "ready\n" : "inventory cache not synced\n");
                          });
                      r.get(
                          "/metrics",
                          ctx -> {
                            if (!anonymousRead
                                && !readAllowed(tokens, ctx.header("Authorization"))) {
                              text(ctx, 401, "send Authorization: Bearer <token> of read scope\n");
                              return;
                            }
                            MetricsEndpoint.Scrape scrape = metrics.scrape(ctx.header("Accept"));
                            ctx.status(200).contentType(scrape.contentType()).result(scrape.body());
                          });
                    }));
    listener.start(host, port);
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

  private static void text(Context ctx, int status, String body) {
    ctx.status(status).contentType("text/plain").result(body);
  }

  int port() {
    return listener.port();
  }

  @Override
  public void close() {
    listener.close();
  }
}
