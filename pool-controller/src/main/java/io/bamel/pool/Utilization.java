package io.bamel.pool;

import java.util.List;

/**
 * How full a pool's ready nodes are: the sum of pod requests and of allocatable capacity per
 * resource. Unknown (with a reason) when Kubernetes is unreachable or metrics are missing: then the
 * policy never scales down.
 */
public record Utilization(
    boolean known, String reason, Resources requested, Resources allocatable) {

  /** Utilization that could not be measured, and why. */
  public static Utilization unknown(String reason) {
    return new Utilization(false, reason, Resources.NONE, Resources.NONE);
  }

  /** Measured utilization. */
  public static Utilization of(Resources requested, Resources allocatable) {
    return new Utilization(true, null, requested, allocatable);
  }

  /** requested / allocatable for {@code resource}; 0 when nothing is allocatable or requested. */
  public double ratio(String resource) {
    double alloc = allocatable.get(resource);
    double req = requested.get(resource);
    if (alloc <= 0) {
      return req > 0 ? Double.POSITIVE_INFINITY : 0;
    }
    return req / alloc;
  }

  /** The highest ratio over {@code resources}. */
  public double max(List<String> resources) {
    double max = 0;
    for (String r : resources) {
      max = Math.max(max, ratio(r));
    }
    return max;
  }

  /** The utilization if {@code node}'s capacity left the pool and its pods stayed. */
  public Utilization without(Resources nodeCapacity) {
    return new Utilization(known, reason, requested, allocatable.minus(nodeCapacity));
  }
}
