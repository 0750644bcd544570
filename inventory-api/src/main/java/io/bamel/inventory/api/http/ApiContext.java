package io.bamel.inventory.api.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.api.ApiOptions;
import io.bamel.inventory.api.nodes.NodeJson;
import io.bamel.inventory.model.Ids;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryCache;
import io.javalin.http.Context;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What every route class shares: the store (all writes), the cache (all reads), the options, and
 * the small request helpers (query parameters, path ids, bodies, JSON answers, read-your-writes).
 */
public final class ApiContext {

  public final EtcdInventory store;
  public final InventoryCache cache;
  public final ApiOptions options;
  public final Bodies bodies;
  public final NodeJson nodeJson = new NodeJson();

  public ApiContext(EtcdInventory store, InventoryCache cache, ApiOptions options) {
    this.store = store;
    this.cache = cache;
    this.options = options;
    this.bodies = new Bodies(options.maxBodyBytes());
  }

  public Clock clock() {
    return options.clock();
  }

  /** 503 unless the cache has done its first listing. */
  public void requireSynced() {
    if (!cache.synced()) {
      throw Problems.unavailable("the inventory cache is not synced with etcd yet");
    }
  }

  /** Waits (bounded) until the cache shows revision {@code revision}: read-your-writes. */
  public void awaitCache(long revision) {
    try {
      cache.awaitRevision(revision, options.readYourWrites());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The query parameters, each given at most once and all among {@code allowed}.
   *
   * @throws ApiException 400 naming an unknown or repeated parameter
   */
  public static Map<String, String> query(Context ctx, Set<String> allowed) {
    checkEncoding(ctx);
    Map<String, String> values = new HashMap<>();
    for (Map.Entry<String, List<String>> e : ctx.queryParamMap().entrySet()) {
      if (!allowed.contains(e.getKey())) {
        throw Problems.invalid(
            safe(e.getKey()), "unknown query parameter; accepted: " + sorted(allowed));
      }
      if (e.getValue().size() != 1) {
        throw Problems.invalid(e.getKey(), "must be given once");
      }
      values.put(e.getKey(), e.getValue().get(0));
    }
    return values;
  }

  /**
   * The query parameters, all among {@code allowed}, each with every value it was given; those not
   * in {@code repeatable} must be given once.
   *
   * @throws ApiException 400 naming an unknown parameter or one repeated that must not be
   */
  public static Map<String, List<String>> queryValues(
      Context ctx, Set<String> allowed, Set<String> repeatable) {
    checkEncoding(ctx);
    Set<String> single = new java.util.HashSet<>(allowed);
    single.removeAll(repeatable);
    Map<String, List<String>> values = new HashMap<>();
    for (Map.Entry<String, List<String>> e : ctx.queryParamMap().entrySet()) {
      if (!allowed.contains(e.getKey())) {
        throw Problems.invalid(
            safe(e.getKey()), "unknown query parameter; accepted: " + sorted(allowed));
      }
      values.put(e.getKey(), List.copyOf(e.getValue()));
      if (single.contains(e.getKey()) && e.getValue().size() != 1) {
        throw Problems.invalid(e.getKey(), "must be given once");
      }
    }
    return values;
  }

  private static void checkEncoding(Context ctx) {
    String raw = ctx.queryString();
    if (raw != null) {
      try {
        java.net.URLDecoder.decode(raw, java.nio.charset.StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        throw Problems.invalid("", "the query string is not well-formed percent-encoding");
      }
    }
  }

  private static String sorted(Set<String> names) {
    return names.isEmpty() ? "none" : String.join(", ", names.stream().sorted().toList());
  }

  private static String safe(String name) {
    String cut = name.length() > 64 ? name.substring(0, 64) + "..." : name;
    return cut.replaceAll("[^\\x20-\\x7e]", "?");
  }

  /** A boolean query parameter ({@code true} or {@code false}; absent: false). */
  public static boolean flag(Map<String, String> query, String name) {
    String v = query.get(name);
    if (v == null || v.equals("false")) {
      return false;
    }
    if (v.equals("true")) {
      return true;
    }
    throw Problems.invalid(name, "must be true or false");
  }

  /** A path parameter that must be a valid id (node id or pool name). */
  public static String id(Context ctx, String param) {
    String id = ctx.pathParam(param);
    String problem = Ids.problem(id);
    if (problem != null) {
      throw Problems.invalid(param, problem);
    }
    return id;
  }

  /** The body as a JSON tree, after the content-type and size checks. */
  public JsonNode json(Context ctx, Set<String> mediaTypes) {
    return ApiJson.parse(bodies.read(ctx, mediaTypes));
  }

  /** Answers with a JSON value. */
  public static void answer(Context ctx, int status, Object value) {
    answerBytes(ctx, status, ApiJson.write(value));
  }

  /** Answers with encoded JSON. */
  public static void answerBytes(Context ctx, int status, byte[] json) {
    ctx.status(status).contentType("application/json").result(json);
  }
}
