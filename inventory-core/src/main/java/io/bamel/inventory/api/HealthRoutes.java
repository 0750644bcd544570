package io.bamel.inventory.api;

import io.bamel.inventory.store.InventoryException;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code /healthz}: the process is alive (always 200). {@code /readyz}: etcd answers and the cache
 * has done its first listing (200), else 503 with the reason.
 */
final class HealthRoutes {

  private final ApiContext api;

  HealthRoutes(ApiContext api) {
    this.api = api;
  }

  void healthz(Context ctx) {
    ApiContext.answer(ctx, 200, Map.of("status", "ok"));
  }

  void readyz(Context ctx) {
    if (!api.cache.synced()) {
      throw Problems.unavailable("the inventory cache has not listed etcd yet");
    }
    long etcdRevision;
    try {
      etcdRevision = api.store.currentRevision();
    } catch (InventoryException e) {
      throw Problems.unavailable("etcd is not reachable");
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", "ready");
    body.put("etcdRevision", etcdRevision);
    body.put("cacheRevision", api.cache.revision());
    body.put("nodes", api.cache.nodeCount());
    ApiContext.answer(ctx, 200, body);
  }
}
