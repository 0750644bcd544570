package io.bamel.server;

import io.bamel.inventory.api.ApiOptions;
import io.bamel.inventory.api.InventoryApi;
import io.bamel.inventory.api.TokenStore;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryCache;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running {@code bamel server}: etcd (embedded or external), the store, the inventory cache and
 * the REST API, started in that order and closed in reverse ({@link #close()} is idempotent and is
 * what SIGTERM runs).
 */
public final class Server implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Server.class);

  private final EtcdConnection etcd;
  private final InventoryCache cache;
  private final InventoryApi api;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private boolean closed;

  private Server(EtcdConnection etcd, InventoryCache cache, InventoryApi api) {
    this.etcd = etcd;
    this.cache = cache;
    this.api = api;
  }

  /**
   * Starts a server and prints where it serves to {@code out} (and, with the embedded etcd, a new
   * admin token: the only place it appears).
   */
  public static Server start(ServerConfig config, PrintStream out) throws Exception {
    String adminToken = config.embeddedEtcd() ? AdminToken.rotate(config.tokensFile()) : null;
    TokenStore tokens =
        Files.exists(config.tokensFile()) ? TokenStore.load(config.tokensFile()) : TokenStore.empty();
    if (tokens.size() == 0 && !config.anonymousRead()) {
      LOG.warn("no API tokens in {}: every request will be refused", config.tokensFile());
    }
    EtcdConnection etcd = EtcdConnection.open(config);
    InventoryCache cache = null;
    try {
      EtcdInventory store = new EtcdInventory(etcd.client());
      cache = new InventoryCache(etcd.client()).start();
      if (!cache.awaitSynced(Duration.ofSeconds(60))) {
        throw new IllegalStateException("could not list the inventory from " + etcd.description());
      }
      ApiOptions options =
          ApiOptions.DEFAULTS
              .withMaxBodyBytes(config.maxBodyBytes())
              .withAnonymousRead(config.anonymousRead());
      InventoryApi api =
          InventoryApi.create(
              store, cache, tokens, options, PrometheusRegistry.defaultRegistry);
      api.start(config.host(), config.port());
      String shown = config.host().equals("0.0.0.0") ? "127.0.0.1" : config.host();
      out.println("bamel server: http://" + shown + ":" + api.port() + " (" + etcd.description() + ")");
      out.println("  API docs: http://" + shown + ":" + api.port() + "/docs");
      if (adminToken != null) {
        out.println("  admin token (new at every start; only its hash is kept in "
            + config.tokensFile() + "):");
        out.println("  " + adminToken);
      }
      out.flush();
      return new Server(etcd, cache, api);
    } catch (Exception | Error e) {
      if (cache != null) {
        cache.close();
      }
      etcd.close();
      throw e;
    }
  }

  /** The HTTP port served on. */
  public int port() {
    return api.port();
  }

  /** Blocks until {@link #close()} has run. */
  public void awaitStop() throws InterruptedException {
    stopped.await();
  }

  /** Stops the API (ending watch streams), the cache, the etcd client, and the embedded etcd. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    LOG.info("bamel server stopping");
    try {
      api.close();
    } finally {
      try {
        cache.close();
      } finally {
        etcd.close();
        stopped.countDown();
      }
    }
  }
}
