package io.bamel.inventory.api.http;

import io.bamel.inventory.api.ApiOptions;
import io.bamel.inventory.api.InventoryApi;
import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import java.util.function.Consumer;

/**
 * One HTTP listener of a bamel process, built the same way for the API ({@link InventoryApi}) and
 * for the health and metrics endpoints of a process that runs no API: Javalin on Jetty with virtual
 * threads, RFC 9457 answers for what Jetty rejects itself ({@link JettyProblems}), and one
 * connector ({@link ApiConnector}) with the TLS of {@link ApiOptions.Connections#tls()} (client
 * certificates required when it names a client CA; the files reloaded when they change), the
 * connection limit, the accept queue, and the idle, request-header and body-rate limits against
 * slow clients. Every listening port of a process therefore has the same defences; only the routes
 * differ.
 */
public final class HttpListener implements AutoCloseable {

  private final ApiTlsContext tls;
  private final Javalin app;
  private volatile String host = "127.0.0.1";
  private volatile int port;

  /**
   * A listener with {@code connections}' settings; {@code routes} adds what it serves (and any
   * other Javalin setting) to the common configuration.
   *
   * @throws IllegalArgumentException when the TLS files cannot be used, naming the file and the
   *     reason
   */
  public HttpListener(ApiOptions.Connections connections, Consumer<JavalinConfig> routes) {
    this.tls =
        connections.tls() == null
            ? null
            : new ApiTlsContext(connections.tls(), connections.tlsReloadInterval());
    this.app =
        Javalin.create(
            config -> {
              config.showJavalinBanner = false;
              config.useVirtualThreads = true;
              config.jetty.modifyServer(server -> server.setErrorHandler(new JettyProblems()));
              config.jetty.addConnector(
                  (server, http) ->
                      ApiConnector.create(server, http, connections, tls, host, port));
              routes.accept(config);
            });
  }

  /** Starts serving on {@code host}:{@code port} (0: a free port). */
  public HttpListener start(String host, int port) {
    this.host = host;
    this.port = port;
    app.start(host, port);
    return this;
  }

  /** Whether it serves HTTPS. */
  public boolean secure() {
    return tls != null;
  }

  /** The port served on (after {@link #start}). */
  public int port() {
    return app.port();
  }

  /** The Javalin app (for tests and embedding). */
  public Javalin app() {
    return app;
  }

  /** Stops serving. */
  @Override
  public void close() {
    app.stop();
  }
}
