package io.bamel.inventory.api;

import io.bamel.dcim.netbox.NetBoxEndpoints;
import io.bamel.inventory.api.http.ApiContext;
import io.bamel.inventory.api.http.ErrorHandling;
import io.bamel.inventory.api.http.HttpListener;
import io.bamel.inventory.api.netbox.NetBoxRoutes;
import io.bamel.inventory.api.nodes.InspectRoutes;
import io.bamel.inventory.api.nodes.NodeEditRoutes;
import io.bamel.inventory.api.nodes.NodeReadRoutes;
import io.bamel.inventory.api.nodes.PowerRoutes;
import io.bamel.inventory.api.pools.PoolRoutes;
import io.bamel.inventory.api.security.Access;
import io.bamel.inventory.api.security.Authentication;
import io.bamel.inventory.api.security.Caller;
import io.bamel.inventory.api.security.TokenStore;
import io.bamel.inventory.api.session.ConsoleSessions;
import io.bamel.inventory.api.session.SessionRoutes;
import io.bamel.inventory.api.sync.SyncRoutes;
import io.bamel.inventory.api.watch.WatchHistory;
import io.bamel.inventory.api.watch.WatchHub;
import io.bamel.inventory.api.watch.WatchRoutes;
import io.bamel.inventory.metrics.HttpMetrics;
import io.bamel.inventory.metrics.InventoryGauges;
import io.bamel.inventory.metrics.MetricsEndpoint;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.sync.SyncConflicts;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The REST inventory API: builds the Javalin app with every route ({@link #routes()}), bearer-token
 * and console-session authentication ({@link Authentication}, {@link SessionRoutes}), the web
 * console's files at {@code /ui/} ({@link ConsoleAssets}), RFC 9457 errors ({@link ErrorHandling}),
 * the body limit, request ids, HTTP metrics and the inventory gauges, on an {@link HttpListener}
 * (the same listener as the health and metrics endpoints of a process without the API): optional
 * TLS reloaded when its files change ({@link ApiTls}), a connection limit, an accept queue, and
 * idle, header and body-rate limits against slow clients ({@link ApiOptions.Connections}).
 *
 * <p>It reads only from the {@link InventoryCache} (which must be started; the API answers 503
 * until it has synced) and writes only through {@link EtcdInventory}; it never polls etcd. It owns
 * neither: closing the API stops the HTTP server and the watch streams, nothing else.
 */
public final class InventoryApi implements AutoCloseable {

  /** One route: method, path template (OpenAPI syntax), the access it requires. */
  public record Route(String method, String path, Access access) {}

  private final HttpListener listener;
  private final List<Route> routes = new ArrayList<>();
  private final WatchHub hub;
  private final InventoryCache cache;
  private final NetBoxRoutes netbox;

  private InventoryApi(
      EtcdInventory store,
      InventoryCache cache,
      TokenStore tokens,
      ApiOptions options,
      PrometheusRegistry registry,
      WatchHistory history) {
    this.cache = cache;
    boolean secure = options.tls() != null;
    ApiContext api = new ApiContext(store, cache, options);
    this.hub = new WatchHub(options.watchHistory());
    HttpMetrics httpMetrics = new HttpMetrics(registry);
    InventoryGauges.register(registry, cache);
    MetricsEndpoint metrics = new MetricsEndpoint(registry);
    ConsoleSessions sessions = new ConsoleSessions(options.sessions(), options.clock());
    Authentication auth = new Authentication(tokens, options.anonymousRead(), sessions, secure);
    SessionRoutes session = new SessionRoutes(api, sessions, tokens, secure);
    NodeReadRoutes nodeReads = new NodeReadRoutes(api);
    NodeEditRoutes nodeEdits = new NodeEditRoutes(api);
    PowerRoutes power = new PowerRoutes(api);
    InspectRoutes inspect = new InspectRoutes(api);
    PoolRoutes pools = new PoolRoutes(api);
    SyncRoutes sync = new SyncRoutes(api, SyncConflicts.on(registry));
    this.netbox = new NetBoxRoutes(api);
    WatchRoutes watch = new WatchRoutes(api, hub, history, sessions);
    HealthRoutes health = new HealthRoutes(api);
    DocsRoutes docs = new DocsRoutes();
    this.listener =
        new HttpListener(
            options.connections(),
            config -> {
              config.http.maxRequestSize = options.maxBodyBytes();
              config.http.disableCompression();
              // A known path with an unknown method is 405 with Allow (ErrorHandling), from
              // Javalin's own route table.
              config.http.prefer405over404 = true;
              ConsoleAssets.configure(config);
              config.router.mount(
                  r -> {
                    r.before(
                        ctx -> {
                          ctx.attribute("bamel.start", System.nanoTime());
                          ctx.header(
                              Caller.REQUEST_ID, Caller.requestId(ctx.header(Caller.REQUEST_ID)));
                        });
                    r.beforeMatched(auth::check);
                    r.after(ctx -> record(httpMetrics, ctx));
                    ErrorHandling.register(r);
                    add(r, "GET", "/healthz", Access.PUBLIC, health::healthz);
                    add(r, "GET", "/readyz", Access.PUBLIC, health::readyz);
                    add(r, "GET", "/openapi.json", Access.PUBLIC, docs::openapi);
                    add(r, "GET", "/docs", Access.PUBLIC, docs::page);
                    add(
                        r,
                        "GET",
                        "/metrics",
                        Access.READ,
                        ctx -> {
                          MetricsEndpoint.Scrape s = metrics.scrape(ctx.header("Accept"));
                          ctx.status(200).contentType(s.contentType()).result(s.body());
                        });
                    add(r, "GET", "/api/v1/nodes", Access.READ, nodeReads::list);
                    add(r, "GET", "/api/v1/nodes/{id}", Access.READ, nodeReads::get);
                    add(r, "PUT", "/api/v1/nodes/{id}", Access.WRITE, nodeEdits::put);
                    add(r, "PATCH", "/api/v1/nodes/{id}", Access.WRITE, nodeEdits::patch);
                    add(r, "DELETE", "/api/v1/nodes/{id}", Access.WRITE, nodeEdits::delete);
                    add(r, "GET", "/api/v1/nodes/{id}/status", Access.READ, nodeReads::status);
                    add(r, "GET", "/api/v1/nodes/{id}/events", Access.READ, nodeReads::events);
                    add(r, "POST", "/api/v1/nodes/{id}/power", Access.WRITE, power::power);
                    add(r, "POST", "/api/v1/nodes/{id}/inspect", Access.WRITE, inspect::inspect);
                    add(r, "GET", "/api/v1/pools", Access.READ, pools::list);
                    add(r, "GET", "/api/v1/pools/{name}", Access.READ, pools::get);
                    add(r, "PUT", "/api/v1/pools/{name}", Access.ADMIN, pools::put);
                    add(r, "PATCH", "/api/v1/pools/{name}", Access.ADMIN, pools::patch);
                    add(r, "DELETE", "/api/v1/pools/{name}", Access.ADMIN, pools::delete);
                    add(r, "POST", "/api/v1/sync", Access.WRITE, sync::sync);
                    add(r, "GET", "/api/v1/sync/netbox/status", Access.READ, netbox::status);
                    add(r, "POST", "/api/v1/webhooks/netbox", Access.PUBLIC, netbox::webhook);
                    add(r, "GET", "/api/v1/watch", Access.READ, watch::watch);
                    add(r, "POST", "/api/v1/session", Access.PUBLIC, session::create);
                    add(r, "GET", "/api/v1/session", Access.PUBLIC, session::get);
                    add(r, "DELETE", "/api/v1/session", Access.PUBLIC, session::delete);
                    // The console's pages are not API routes (not in routes(), not in OpenAPI).
                    r.get("/", ConsoleAssets::redirect, Access.PUBLIC);
                  });
            });
    // After the listener (whose TLS files may be refused): only a built API listens to the cache.
    cache.addListener(hub);
    startHistoryWhenSynced(cache, hub);
    cache.addListener(api.nodeJson);
  }

  /**
   * An API over {@code store} and {@code cache}, registering its metrics in {@code registry}.
   * Create it before starting the cache, or after: the watch hub's memory starts at the cache's
   * revision when the API is created; a watch resuming from before that reads etcd's history
   * ({@link InventoryCache#history}).
   *
   * @throws IllegalArgumentException when the options' TLS files cannot be used, naming the file
   *     and the reason
   */
  public static InventoryApi create(
      EtcdInventory store,
      InventoryCache cache,
      TokenStore tokens,
      ApiOptions options,
      PrometheusRegistry registry) {
    return new InventoryApi(store, cache, tokens, options, registry, cache::history);
  }

  /**
   * An API whose watch reads changes older than its in-memory history from {@code history} (tests:
   * {@link WatchHistory#NONE}, or a recorded history).
   */
  static InventoryApi create(
      EtcdInventory store,
      InventoryCache cache,
      TokenStore tokens,
      ApiOptions options,
      PrometheusRegistry registry,
      WatchHistory history) {
    return new InventoryApi(store, cache, tokens, options, registry, history);
  }

  private static void startHistoryWhenSynced(InventoryCache cache, WatchHub hub) {
    if (cache.synced()) {
      hub.start(cache.revision());
      return;
    }
    Thread starter =
        new Thread(
            () -> {
              try {
                if (cache.awaitSynced(Duration.ofDays(365))) {
                  hub.start(cache.revision());
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "bamel-watch-history");
    starter.setDaemon(true);
    starter.start();
  }

  private void add(
      io.javalin.router.JavalinDefaultRouting r,
      String method,
      String path,
      Access access,
      Handler handler) {
    routes.add(new Route(method, path, access));
    r.addHttpHandler(HandlerType.valueOf(method), path, handler, access);
  }

  private static void record(HttpMetrics metrics, Context ctx) {
    Long start = ctx.attribute("bamel.start");
    String route =
        ctx.routeRoles().isEmpty()
            ? HttpMetrics.UNMATCHED
            : ctx.path().startsWith(ConsoleAssets.PATH + "/")
                ? ConsoleAssets.PATH + "/*"
                : ctx.endpointHandlerPath();
    double seconds = start == null ? 0 : (System.nanoTime() - start) / 1e9;
    metrics.record(ctx.method().name(), route, ctx.statusCode(), seconds);
  }

  /**
   * Starts serving on {@code host}:{@code port} (0: a free port), over HTTPS when the options name
   * TLS files.
   */
  public InventoryApi start(String host, int port) {
    listener.start(host, port);
    return this;
  }

  /**
   * Attaches the NetBox source behind {@code POST /api/v1/webhooks/netbox} and {@code GET
   * /api/v1/sync/netbox/status} (null detaches it: both answer 404).
   */
  public InventoryApi netbox(NetBoxEndpoints endpoints) {
    netbox.attach(endpoints);
    return this;
  }

  /** Whether the API serves HTTPS. */
  public boolean secure() {
    return listener.secure();
  }

  /** The port served on (after {@link #start}). */
  public int port() {
    return listener.port();
  }

  /** Every route, in registration order. */
  public List<Route> routes() {
    return List.copyOf(routes);
  }

  /** The Javalin app (for tests and embedding). */
  public Javalin app() {
    return listener.app();
  }

  /** Ends the watch streams and stops the HTTP server. */
  @Override
  public void close() {
    cache.removeListener(hub);
    hub.close();
    listener.close();
  }
}
