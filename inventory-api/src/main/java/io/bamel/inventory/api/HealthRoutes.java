package io.bamel.inventory.api;

import io.bamel.inventory.api.http.ApiContext;
import io.bamel.inventory.api.http.Problems;
import io.javalin.http.Context;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code /healthz}: the process is alive (always 200). {@code /readyz}: etcd answers within {@link
 * #ETCD_DEADLINE} and the cache has done its first listing (200), else 503 with the reason. A ready
 * answer lists as {@code warnings} what an operator should act on without the process being unready
 * ({@link ApiOptions#readinessNotes()}: an etcd nearly full or in alarm, open BMC credentials).
 */
final class HealthRoutes {

  /** How long {@code /readyz} waits for etcd (probes usually give up after 1 to 5 s). */
  static final Duration ETCD_DEADLINE = Duration.ofSeconds(2);

  private final ApiContext api;
  private final EtcdProbe etcd;

  HealthRoutes(ApiContext api) {
    this.api = api;
    this.etcd = new EtcdProbe(api.store, ETCD_DEADLINE);
  }

  void healthz(Context ctx) {
    ApiContext.answer(ctx, 200, Map.of("status", "ok"));
  }

  void readyz(Context ctx) {
    if (!api.cache.synced()) {
      throw Problems.unavailable("the inventory cache has not listed etcd yet");
    }
    long etcdRevision = etcd.revision();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", "ready");
    body.put("etcdRevision", etcdRevision);
    body.put("cacheRevision", api.cache.revision());
    body.put("nodes", api.cache.nodeCount());
    List<String> warnings = api.options.readinessNotes().get();
    if (!warnings.isEmpty()) {
      body.put("warnings", warnings);
    }
    ApiContext.answer(ctx, 200, body);
  }
}
