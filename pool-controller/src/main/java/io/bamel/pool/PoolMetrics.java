package io.bamel.pool;

import io.bamel.inventory.model.NodeState;
import io.prometheus.metrics.core.datapoints.GaugeDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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

  /**
   * One pool's gauge data points, looked up once ({@code labelValues} builds a label list and
   * searches the metric's map on every call: a dozen per pool and cycle otherwise).
   */
  private final class PoolPoints {
    final GaugeDataPoint[] byState = new GaugeDataPoint[STATES.length];
    final GaugeDataPoint desired;
    final GaugeDataPoint pending;
    final GaugeDataPoint power;
    final GaugeDataPoint up;
    final GaugeDataPoint down;
    final Map<String, GaugeDataPoint> utilization = new ConcurrentHashMap<>();

    PoolPoints(String pool) {
      for (NodeState s : STATES) {
        byState[s.ordinal()] = nodes.labelValues(pool, s.json());
      }
      desired = PoolMetrics.this.desired.labelValues(pool);
      pending = PoolMetrics.this.pending.labelValues(pool);
      power = PoolMetrics.this.power.labelValues(pool);
      up = thresholds.labelValues(pool, "up");
      down = thresholds.labelValues(pool, "down");
    }
  }

  private static final NodeState[] STATES = NodeState.values();

  private final Map<String, PoolPoints> points = new ConcurrentHashMap<>();

  private PoolPoints points(String pool) {
    return points.computeIfAbsent(pool, PoolPoints::new);
  }

  /** Records what one pool looks like after a decision. */
  public void observe(
      String pool,
      PoolSnapshot snapshot,
      ScalingDecision decision,
      List<String> resources,
      double powerWatts) {
    PoolPoints p = points(pool);
    int[] counts = new int[STATES.length];
    for (Member m : snapshot.members()) {
      counts[m.state().ordinal()]++;
    }
    for (int i = 0; i < counts.length; i++) {
      p.byState[i].set(counts[i]);
    }
    p.desired.set(decision.desiredNodes());
    p.pending.set(snapshot.pending().size());
    p.power.set(powerWatts);
    Utilization u = snapshot.utilization();
    for (String r : resources) {
      double ratio = u.ratio(r);
      if (u.known() && Double.isFinite(ratio)) {
        p.utilization.computeIfAbsent(r, k -> utilization.labelValues(pool, k)).set(ratio);
      } else if (p.utilization.remove(r) != null) {
        utilization.remove(pool, r);
      }
    }
  }

  /** Records the utilization thresholds in effect for a pool (its config with defaults applied). */
  public void thresholds(String pool, double scaleUp, double scaleDown) {
    PoolPoints p = points(pool);
    p.up.set(scaleUp);
    p.down.set(scaleDown);
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
    points.remove(pool);
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
