package io.bamel.inventory.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.api.security.TokenStore;
import io.bamel.inventory.api.watch.WatchHistory;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.testing.EtcdCluster;
import io.etcd.jetcd.Client;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A running API for tests: a jetcd client on the harness's etcd, the store, a started and synced
 * cache (or, from {@link #withoutCache}, one not started yet), and the API on a free loopback port
 * with four tokens (one per scope: reader, dcim, netops, ops). Closing it stops all of them.
 *
 * <p>Every response {@link #send} receives is validated against the served {@code /openapi.json}
 * ({@link ResponseValidator#served()}), whose response objects are closed: each API test is also a
 * check that the document describes what the server really answers.
 */
final class ApiFixture implements AutoCloseable {

  static final String READ = "test-read-token";
  static final String WRITE = "test-write-token";
  static final String BMC = "test-bmc-token";
  static final String ADMIN = "test-admin-token";

  final EtcdCluster etcd;
  final Client client;
  final EtcdInventory store;
  final InventoryCache cache;
  final TokenStore tokens;
  InventoryApi api;
  PrometheusRegistry registry = new PrometheusRegistry();
  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  String base;

  /**
   * Whether {@link #send} validates responses against the document; off only where a test stores
   * what this version's document cannot describe (a newer bamel's field), on by default.
   */
  boolean validateResponses = true;

  private ApiFixture(EtcdCluster etcd, ApiOptions options) throws InterruptedException {
    this(etcd, options, true);
  }

  private ApiFixture(EtcdCluster etcd, ApiOptions options, boolean startCache)
      throws InterruptedException {
    this.etcd = etcd;
    this.client = etcd.client();
    this.store = new EtcdInventory(client);
    this.cache = new InventoryCache(client);
    this.tokens =
        TokenStore.of(
            List.of(
                TokenStore.parse(TokenStore.line("reader", "read", READ), "test"),
                TokenStore.parse(TokenStore.line("dcim", "write", WRITE), "test"),
                TokenStore.parse(TokenStore.line("netops", "bmc", BMC), "test"),
                TokenStore.parse(TokenStore.line("ops", "admin", ADMIN), "test")));
    if (startCache) {
      startCache();
    }
    this.api = InventoryApi.create(store, cache, tokens, options, registry);
    api.start("127.0.0.1", 0);
    this.base = base(api);
  }

  static ApiFixture start(EtcdCluster etcd) throws InterruptedException {
    return new ApiFixture(etcd, ApiOptions.DEFAULTS);
  }

  static ApiFixture start(EtcdCluster etcd, ApiOptions options) throws InterruptedException {
    return new ApiFixture(etcd, options);
  }

  /**
   * Stops the API and starts a new one over the same store and cache (a new watch hub, a new port),
   * as a restarted server would be; its watch reads older changes from {@code history}.
   */
  void restartApi(ApiOptions options, WatchHistory history) {
    api.close();
    registry = new PrometheusRegistry();
    api = InventoryApi.create(store, cache, tokens, options, registry, history);
    api.start("127.0.0.1", 0);
    base = base(api);
  }

  private static String base(InventoryApi api) {
    return (api.secure() ? "https" : "http") + "://127.0.0.1:" + api.port();
  }

  /** A running API whose cache has not been started (call {@link #startCache()}). */
  static ApiFixture withoutCache(EtcdCluster etcd) throws InterruptedException {
    return new ApiFixture(etcd, ApiOptions.DEFAULTS, false);
  }

  /** Starts the cache and waits until it has synced. */
  void startCache() throws InterruptedException {
    cache.start();
    if (!cache.awaitSynced(Duration.ofSeconds(20))) {
      throw new IllegalStateException("cache did not sync");
    }
  }

  /** An HTTP response with its body as text. */
  record Response(int status, HttpResponse<byte[]> raw) {
    String body() {
      return new String(raw.body(), StandardCharsets.UTF_8);
    }

    JsonNode json() {
      try {
        return Codec.mapper().readTree(raw.body());
      } catch (IOException e) {
        throw new AssertionError("not JSON: " + body(), e);
      }
    }

    String header(String name) {
      return raw.headers().firstValue(name).orElse(null);
    }

    String contentType() {
      return header("Content-Type");
    }

    /** The {@code field} of each error of a problem answer. */
    List<String> errorFields() {
      return json().path("errors").findValuesAsText("field");
    }

    @Override
    public String toString() {
      return status + " " + body();
    }
  }

  Response send(
      String method,
      String path,
      String token,
      String contentType,
      byte[] body,
      Map<String, String> headers) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    if (contentType != null) {
      b.header("Content-Type", contentType);
    }
    headers.forEach(b::header);
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
    try {
      HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
      Response response = new Response(r.statusCode(), r);
      if (validateResponses) {
        ResponseValidator.served().checkAny(method, path, response);
      }
      return response;
    } catch (IOException e) {
      throw new AssertionError(method + " " + path + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  Response get(String path) {
    return send("GET", path, ADMIN, null, null, Map.of());
  }

  Response get(String path, String token) {
    return send("GET", path, token, null, null, Map.of());
  }

  Response json(String method, String path, String json) {
    return json(method, path, json, Map.of());
  }

  Response json(String method, String path, String json, Map<String, String> headers) {
    return jsonAs(ADMIN, method, path, json, headers);
  }

  /** {@code json} sent with {@code token}: a merge patch for PATCH, plain JSON otherwise. */
  Response jsonAs(String token, String method, String path, String json) {
    return jsonAs(token, method, path, json, Map.of());
  }

  private Response jsonAs(
      String token, String method, String path, String json, Map<String, String> headers) {
    return send(
        method,
        path,
        token,
        method.equals("PATCH") ? "application/merge-patch+json" : "application/json",
        json.getBytes(StandardCharsets.UTF_8),
        headers);
  }

  /** A console's sign-in: {@code POST /api/v1/session} with the JSON {@code body}, no bearer. */
  Response signIn(String body, Map<String, String> headers) {
    return send(
        "POST",
        "/api/v1/session",
        null,
        "application/json",
        body.getBytes(StandardCharsets.UTF_8),
        headers);
  }

  /** The sign-in body that pastes {@code token}. */
  static String pasted(String token) {
    return "{\"token\":\"" + token + "\"}";
  }

  Response delete(String path, Map<String, String> headers) {
    return send("DELETE", path, ADMIN, null, null, headers);
  }

  /** The current etcd revision. */
  long revision() {
    return store.currentRevision();
  }

  @Override
  public void close() {
    api.close();
    cache.close();
    client.close();
  }
}
