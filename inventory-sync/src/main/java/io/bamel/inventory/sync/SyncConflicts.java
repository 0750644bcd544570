package io.bamel.inventory.sync;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * {@code bamel_sync_conflicts_total{source}}: the sync items refused as identity conflicts ({@link
 * IdentityRule}), by the path that synced: {@code api} ({@code POST /api/v1/sync}), {@code
 * netbox-pull}, {@code netbox-webhook}. One counter per registry, whichever path registers it
 * first, so the API and the NetBox source of one process share it. Thread-safe.
 */
public final class SyncConflicts {

  private static final Map<PrometheusRegistry, SyncConflicts> BY_REGISTRY = new WeakHashMap<>();

  private final Counter counter;

  private SyncConflicts(Counter counter) {
    this.counter = counter;
  }

  /** The counter of {@code registry}, registered there on first use. */
  public static SyncConflicts on(PrometheusRegistry registry) {
    synchronized (BY_REGISTRY) {
      return BY_REGISTRY.computeIfAbsent(
          registry,
          r ->
              new SyncConflicts(
                  Counter.builder()
                      .name("bamel_sync_conflicts_total")
                      .help(
                          "DCIM sync items refused as identity conflicts (a node or a unique value"
                              + " of another record), by source.")
                      .labelNames("source")
                      .register(r)));
    }
  }

  /** Counts {@code n} conflicts of {@code source}. */
  public void count(String source, int n) {
    if (n > 0) {
      counter.labelValues(source).inc(n);
    }
  }

  /** The conflicts counted for {@code source} so far. */
  public double value(String source) {
    return counter.labelValues(source).get();
  }
}
