package io.bamel.node;

import io.bamel.inventory.model.Node;
import io.bamel.inventory.store.InventoryCache;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

/**
 * The node controller's metrics:
 *
 * <ul>
 *   <li>{@code bamel_nodes{pool,state}}: nodes by pool and lifecycle state, from the cache at
 *       scrape time (skipped when the inventory's gauges already registered it on the same
 *       registry);
 *   <li>{@code bamel_node_transitions_total{from,to}}, {@code bamel_reconcile_total{result}},
 *       {@code bamel_reconcile_duration_seconds}, {@code bamel_workqueue_depth}, {@code
 *       bamel_power_drift_total{direction}}, {@code bamel_node_remediations_total{result}} (a
 *       NotReady node: not-ready, power-cycle, recovered, error), {@code bamel_leader{component}}
 *       (1 while acting: leading, or live on the ring when sharded), and {@code
 *       bamel_node_power_watts{node}} where the BMC reports power draw, and {@code
 *       bamel_kubernetes_identity_refusals_total{reason}} (refusals to act on a Kubernetes node not
 *       provably this machine: mismatch, unknown).
 * </ul>
 */
final class NodeMetrics {

  private final Counter transitions;
  private final Counter reconciles;
  private final Histogram duration;
  private final Counter drift;
  private final Counter remediations;
  private final Gauge watts;
  private final Counter identityRefusals;

  NodeMetrics(
      PrometheusRegistry registry,
      InventoryCache cache,
      String component,
      BooleanSupplier leader,
      IntSupplier depth) {
    transitions =
        Counter.builder()
            .name("bamel_node_transitions_total")
            .help("Node lifecycle transitions made by the node controller.")
            .labelNames("from", "to")
            .register(registry);
    reconciles =
        Counter.builder()
            .name("bamel_reconcile_total")
            .help("Node reconciliations, by result (ok, requeue, error, conflict, fenced, ...).")
            .labelNames("result")
            .register(registry);
    duration =
        Histogram.builder()
            .name("bamel_reconcile_duration_seconds")
            .help("Time to reconcile one node, BMC and Kubernetes calls included.")
            .classicUpperBounds(
                0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 150)
            .register(registry);
    drift =
        Counter.builder()
            .name("bamel_power_drift_total")
            .help("Power states found different from the desired one without bamel's doing.")
            .labelNames("direction")
            .register(registry);
    remediations =
        Counter.builder()
            .name("bamel_node_remediations_total")
            .help(
                "Steps of the remediation of ready nodes NotReady in Kubernetes, by result"
                    + " (not-ready, power-cycle, recovered, error).")
            .labelNames("result")
            .register(registry);
    watts =
        Gauge.builder()
            .name("bamel_node_power_watts")
            .help("Power draw reported by the node's BMC.")
            .labelNames("node")
            .register(registry);
    identityRefusals =
        Counter.builder()
            .name("bamel_kubernetes_identity_refusals_total")
            .help(
                "Kubernetes nodes the node controller refused to cordon, drain, label or uncordon"
                    + " because they are not provably the inventory node's machine, by reason"
                    + " (mismatch, unknown); counted when a refusal begins or changes reason.")
            .labelNames("reason")
            .register(registry);
    GaugeWithCallback.builder()
        .name("bamel_workqueue_depth")
        .help("Node ids waiting for a worker.")
        .callback(cb -> cb.call(depth.getAsInt()))
        .register(registry);
    if (!registered(registry, "bamel_leader")) {
      // else the process's own bamel_leader (io.bamel.inventory.metrics.Leaderships) covers it
      GaugeWithCallback.builder()
          .name("bamel_leader")
          .help(
              "1 while this process acts for the component (leads it, or, sharded, is live on the"
                  + " ring), else 0.")
          .labelNames("component")
          .callback(cb -> cb.call(leader.getAsBoolean() ? 1 : 0, component))
          .register(registry);
    }
    if (!registered(registry, "bamel_nodes")) {
      try {
        GaugeWithCallback.builder()
            .name("bamel_nodes")
            .help("Nodes in the inventory, by pool and lifecycle state.")
            .labelNames("pool", "state")
            .callback(
                cb -> {
                  for (Map.Entry<String, Integer> e : countByPoolAndState(cache).entrySet()) {
                    String[] labels = e.getKey().split("\u0000", 2);
                    cb.call(e.getValue(), labels[0], labels[1]);
                  }
                })
            .register(registry);
      } catch (IllegalArgumentException | IllegalStateException e) {
        // registered meanwhile by the inventory's gauges (InventoryGauges): same meaning
      }
    }
  }

  private static boolean registered(PrometheusRegistry registry, String name) {
    return registry.scrape(name::equals).stream()
        .anyMatch(m -> m.getMetadata().getName().equals(name));
  }

  private static Map<String, Integer> countByPoolAndState(InventoryCache cache) {
    Map<String, Integer> counts = new HashMap<>();
    for (Node node : cache.nodes()) {
      String pool = node.spec().pool() == null ? "" : node.spec().pool();
      counts.merge(pool + "\u0000" + node.state(), 1, Integer::sum);
    }
    return counts;
  }

  void transition(String from, String to) {
    transitions.labelValues(from, to).inc();
  }

  void reconciled(String result, double seconds) {
    reconciles.labelValues(result).inc();
    duration.observe(seconds);
  }

  void drift(String direction) {
    drift.labelValues(direction).inc();
  }

  void remediation(String result) {
    remediations.labelValues(result).inc();
  }

  void watts(String node, double value) {
    watts.labelValues(node).set(value);
  }

  void identityRefusal(String reason) {
    identityRefusals.labelValues(reason).inc();
  }

  void forget(String node) {
    watts.remove(node);
  }
}
