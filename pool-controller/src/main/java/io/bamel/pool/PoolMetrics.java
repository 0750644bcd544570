package io.bamel.pool;

import io.bamel.inventory.model.NodeState;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The pool controller's metrics, registered once on the registry passed in:
 *
 * <ul>
 *   <li>{@code bamel_pool_nodes{pool,state}}: members by lifecycle state (every state, 0 included);
 *   <li>{@code bamel_pool_desired_nodes{pool}}: the nodes the pool should have on;
 *   <li>{@code bamel_pool_utilization_ratio{pool,resource}}: requests over allocatable (absent
 *       while unknown);
 *   <li>{@code bamel_pool_threshold_ratio{pool,direction}}: the pool's scale-up ({@code up}) and
 *       scale-down ({@code down}) utilization thresholds in effect, defaults applied;
 *   <li>{@code bamel_pool_pending_pods{pool}}: unschedulable pods the pool serves;
 *   <li>{@code bamel_scale_decisions_total{pool,direction,reason}}: decisions that switch nodes
 *       (dry-run ones included), by the first word of their reason;
 *   <li>{@code bamel_pool_decision_duration_seconds}: time to decide for one pool, write included;
 *   <li>{@code bamel_pool_power_watts{pool}}: the sum of the members' last BMC power readings;
 *   <li>{@code bamel_energy_saved_joules_total{pool}}: see {@link EnergyLedger}.
 * </ul>
 *
 * Thread-safe.
 */
public final class PoolMetrics {

  private final Gauge nodes;
  private final Gauge desired;
  private final Gauge utilization;
  private final Gauge thresholds;
  private final Gauge pending;
  private final Counter decisions;
  private final Histogram duration;
  private final Gauge power;
  private final Counter energy;

  /** Registers the metrics in {@code registry}. */
  public PoolMetrics(PrometheusRegistry registry) {
    nodes =
        Gauge.builder()
            .name("bamel_pool_nodes")
            .help("Members of a pool by lifecycle state.")
            .labelNames("pool", "state")
            .register(registry);
    desired =
        Gauge.builder()
            .name("bamel_pool_desired_nodes")
            .help("Nodes the pool controller wants on in a pool.")
            .labelNames("pool")
            .register(registry);
    utilization =
        Gauge.builder()
            .name("bamel_pool_utilization_ratio")
            .help("Pod requests over allocatable on a pool's ready nodes, by resource.")
            .labelNames("pool", "resource")
            .register(registry);
    thresholds =
        Gauge.builder()
            .name("bamel_pool_threshold_ratio")
            .help("A pool's utilization thresholds in effect, by direction (up, down).")
            .labelNames("pool", "direction")
            .register(registry);
    pending =
        Gauge.builder()
            .name("bamel_pool_pending_pods")
            .help("Unschedulable pods a pool serves.")
            .labelNames("pool")
            .register(registry);
    decisions =
        Counter.builder()
            .name("bamel_scale_decisions_total")
            .help("Scaling decisions that switch nodes, by pool, direction and reason.")
            .labelNames("pool", "direction", "reason")
            .register(registry);
    duration =
        Histogram.builder()
            .name("bamel_pool_decision_duration_seconds")
            .help("Time to decide for one pool, the etcd write included.")
            .classicUpperBounds(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5)
            .register(registry);
    power =
        Gauge.builder()
            .name("bamel_pool_power_watts")
            .help("Sum of the last BMC power readings of a pool's members.")
            .labelNames("pool")
            .register(registry);
    energy =
        Counter.builder()
            .name("bamel_energy_saved_joules_total")
            .help("Estimated energy not spent because a pool's nodes were off.")
            .labelNames("pool")
            .register(registry);
  }

  /** Records what one pool looks like after a decision. */
  public void observe(
      String pool,
      PoolSnapshot snapshot,
      ScalingDecision decision,
      List<String> resources,
      double powerWatts) {
    Map<NodeState, Integer> counts = new EnumMap<>(NodeState.class);
    for (NodeState s : NodeState.values()) {
      counts.put(s, 0);
    }
    snapshot.members().forEach(m -> counts.merge(m.state(), 1, Integer::sum));
    counts.forEach((s, n) -> nodes.labelValues(pool, s.json()).set(n));
    desired.labelValues(pool).set(decision.desiredNodes());
    pending.labelValues(pool).set(snapshot.pending().size());
    power.labelValues(pool).set(powerWatts);
    Utilization u = snapshot.utilization();
    for (String r : resources) {
      double ratio = u.ratio(r);
      if (u.known() && Double.isFinite(ratio)) {
        utilization.labelValues(pool, r).set(ratio);
      } else {
        utilization.remove(pool, r);
      }
    }
  }

  /** Records the utilization thresholds in effect for a pool (its config with defaults applied). */
  public void thresholds(String pool, double scaleUp, double scaleDown) {
    thresholds.labelValues(pool, "up").set(scaleUp);
    thresholds.labelValues(pool, "down").set(scaleDown);
  }

  /** Counts a decision that switches nodes. */
  public void decided(String pool, ScalingDecision decision) {
    if (decision.direction() != ScalingDecision.Direction.NONE) {
      decisions
          .labelValues(
              pool,
              decision.direction().name().toLowerCase(java.util.Locale.ROOT),
              PoolStatuses.reasonWord(decision.reason()))
          .inc();
    }
  }

  /** Records the time one pool's decision took. */
  public void decisionSeconds(double seconds) {
    duration.observe(seconds);
  }

  /** Adds estimated saved energy. */
  public void energySaved(String pool, double joules) {
    if (joules > 0) {
      energy.labelValues(pool).inc(joules);
    }
  }

  /** Drops the gauges of a pool that no longer exists. */
  public void forget(String pool, List<String> resources) {
    for (NodeState s : NodeState.values()) {
      nodes.remove(pool, s.json());
    }
    desired.remove(pool);
    pending.remove(pool);
    power.remove(pool);
    thresholds.remove(pool, "up");
    thresholds.remove(pool, "down");
    for (String r : resources) {
      utilization.remove(pool, r);
    }
  }
}
