package io.bamel.bench.api;

import io.bamel.bench.Timer;
import io.bamel.inventory.api.ApiOptions;
import io.bamel.inventory.api.InventoryApi;
import io.bamel.inventory.api.security.Access;
import io.bamel.inventory.api.security.TokenStore;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.testing.EtcdCluster;
import io.etcd.jetcd.Client;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * A running API for the benchmarks: store, synced cache, and the HTTP API on a loopback port with
 * one admin token; plus the HTTP/1.1 client the benchmarks call it with (a listing client over
 * HTTP/1.1, as curl and most DCIM tools are; no h2c upgrade).
 */
final class ApiBench implements AutoCloseable {

  private static final String TOKEN = TokenStore.newToken();

  final InventoryCache cache;
  final InventoryApi api;
  final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  final String base;

  ApiBench(Client client) throws InterruptedException {
    EtcdInventory store = new EtcdInventory(client);
    cache = new InventoryCache(client).start();
    if (!cache.awaitSynced(Duration.ofMinutes(5))) {
      throw new IllegalStateException("cache did not sync");
    }
    TokenStore tokens =
        TokenStore.of(List.of(new TokenStore.Entry("bench", Access.ADMIN, TokenStore.hash(TOKEN))));
    api =
        InventoryApi.create(
                store,
                cache,
                tokens,
                ApiOptions.DEFAULTS.withMaxBodyBytes(64L * 1024 * 1024),
                new PrometheusRegistry())
            .start("127.0.0.1", 0);
    base = "http://127.0.0.1:" + api.port();
  }

  /**
   * Waits (untimed, between runs) until the cache has followed etcd to {@code revision} and holds
   * {@code nodes} nodes: after the benchmark cleared etcd or deleted the nodes it had added.
   */
  void awaitNodes(long revision, int nodes) throws InterruptedException {
    if (!cache.awaitRevision(revision, Duration.ofSeconds(60))) {
      throw new IllegalStateException("the cache did not follow etcd to revision " + revision);
    }
    while (cache.nodeCount() != nodes) {
      Thread.sleep(10);
    }
  }

  /** Deletes every key of {@code etcd} and waits until the cache holds no node (untimed). */
  void clear(EtcdCluster etcd) throws InterruptedException {
    etcd.clear();
    awaitNodes(etcd.revision(), 0);
  }

  /**
   * The timed sync of {@code count} new nodes into an empty inventory: before each run {@link
   * #clear} (untimed), then {@link #sync} of {@code body} to {@code path}, all of them created.
   */
  Timer.Trial syncIntoEmpty(EtcdCluster etcd, String path, byte[] body, int count) {
    return Timer.Trial.of(() -> clear(etcd), () -> sync(path, body, "created", count));
  }

  /** A GET request of {@code path} with the token and the given header pairs. */
  HttpRequest get(String path, String... headers) {
    HttpRequest.Builder b = request(path);
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return b.GET().build();
  }

  /** The value of the Authorization header the benchmarks send. */
  String authorization() {
    return "Bearer " + TOKEN;
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(base + path))
        .timeout(Duration.ofMinutes(5))
        .header("Authorization", authorization());
  }

  /**
   * Posts a DCIM sync of {@code body} to {@code path} and fails unless its report lists {@code
   * count} nodes under {@code outcome} ({@code created}, {@code unchanged}, ...).
   */
  void sync(String path, byte[] body, String outcome, int count) throws Exception {
    byte[] report = send("POST", path, body);
    int listed = Codec.mapper().readTree(report).get(outcome).size();
    if (listed != count) {
      throw new IllegalStateException(
          "the sync reported " + listed + " nodes " + outcome + ", not " + count);
    }
  }

  /** Sends a request; fails unless it answers 200. */
  byte[] send(String method, String path, byte[] body) throws Exception {
    HttpRequest.Builder b = request(path);
    if (body != null) {
      b.header("Content-Type", "application/json");
      b.method(method, HttpRequest.BodyPublishers.ofByteArray(body));
    } else {
      b.method(method, HttpRequest.BodyPublishers.noBody());
    }
    HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    if (r.statusCode() != 200) {
      throw new IllegalStateException(
          method
              + " "
              + path
              + " answered "
              + r.statusCode()
              + ": "
              + new String(
                  r.body(),
                  0,
                  Math.min(500, r.body().length),
                  java.nio.charset.StandardCharsets.UTF_8));
    }
    return r.body();
  }

  @Override
  public void close() {
    api.close();
    cache.close();
  }
}
