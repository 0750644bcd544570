package io.bamel.inventory.metrics;

import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.BooleanSupplier;

/**
 * Whether this process acts for each leader-elected component it takes part in ({@code
 * node-controller}, {@code pool-controller}, {@code netbox-sync}, {@code etcd-maintenance}, ...),
 * exported as {@code bamel_leader{component}} (1 while acting, else 0; a component this process
 * does not run has no series). {@link LeaderGatedRegistry} reads it to export a component's gauges
 * from its leader only. Thread-safe.
 */
public final class Leaderships {

  private final Map<String, BooleanSupplier> acting = new ConcurrentSkipListMap<>();

  /** Registers {@code bamel_leader} over these components in {@code registry}. */
  public void register(PrometheusRegistry registry) {
    GaugeWithCallback.builder()
        .name("bamel_leader")
        .help(
            "1 while this process acts for the component (leads it, or, for a sharded node"
                + " controller, is live on the ring), else 0.")
        .labelNames("component")
        .callback(
            cb ->
                acting.forEach(
                    (component, leads) -> cb.call(leads.getAsBoolean() ? 1 : 0, component)))
        .register(registry);
  }

  /** Adds (or replaces) {@code component}, acting while {@code leads} says so. */
  public void add(String component, BooleanSupplier leads) {
    acting.put(component, leads);
  }

  /** Whether this process acts for {@code component}; empty when it does not take part in it. */
  public Optional<Boolean> leads(String component) {
    BooleanSupplier leads = acting.get(component);
    return leads == null ? Optional.empty() : Optional.of(leads.getAsBoolean());
  }
}
