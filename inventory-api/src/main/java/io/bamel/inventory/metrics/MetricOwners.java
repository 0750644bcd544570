package io.bamel.inventory.metrics;

import java.util.Map;

/**
 * Which leader-elected component owns which gauges: a gauge that describes the fleet or a pool,
 * rather than this process, is exported only by the process that leads its owner, so that with
 * several replicas {@code sum(...)} counts every node once. Counters, histograms and per-process
 * gauges have no owner: every process exports what it did or sees.
 *
 * <ul>
 *   <li>{@code bamel_nodes}, {@code bamel_pools}: {@value #FLEET} (the election every {@code bamel
 *       server} process takes part in, whatever its {@code --components});
 *   <li>{@code bamel_pool_nodes}, {@code bamel_pool_desired_nodes}, {@code
 *       bamel_pool_utilization_ratio}, {@code bamel_pool_threshold_ratio}, {@code
 *       bamel_pool_pending_pods}, {@code bamel_pool_power_watts}: {@code pool-controller};
 *   <li>{@code bamel_node_power_watts}: {@code node-controller};
 *   <li>{@code bamel_netbox_last_*}: {@code netbox-sync}.
 * </ul>
 */
public final class MetricOwners {

  /** The component whose leader exports the fleet gauges. */
  public static final String FLEET = "etcd-maintenance";

  private static final Map<String, String> OWNERS =
      Map.ofEntries(
          Map.entry("bamel_nodes", FLEET),
          Map.entry("bamel_pools", FLEET),
          Map.entry("bamel_pool_nodes", "pool-controller"),
          Map.entry("bamel_pool_desired_nodes", "pool-controller"),
          Map.entry("bamel_pool_utilization_ratio", "pool-controller"),
          Map.entry("bamel_pool_threshold_ratio", "pool-controller"),
          Map.entry("bamel_pool_pending_pods", "pool-controller"),
          Map.entry("bamel_pool_power_watts", "pool-controller"),
          Map.entry("bamel_node_power_watts", "node-controller"));

  private MetricOwners() {}

  /** The component owning the metric named {@code name} (its Prometheus name), or null. */
  public static String ownerOf(String name) {
    String owner = OWNERS.get(name);
    if (owner == null && name.startsWith("bamel_netbox_last_")) {
      return "netbox-sync";
    }
    return owner;
  }
}
