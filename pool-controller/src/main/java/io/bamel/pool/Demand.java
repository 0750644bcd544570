package io.bamel.pool;

import java.util.List;

/**
 * What a scale-up must provide: the resources asked for, and the resource under the most pressure
 * (the one that decides which node fits best).
 */
public record Demand(Resources need, String pressure) {

  /** The demand of pending pods: their total requests; a GPU request makes GPU the pressure. */
  public static Demand ofPending(List<PendingPod> pods, Resources typicalCapacity) {
    Resources need = Resources.sum(pods.stream().map(PendingPod::requests).toList());
    String pressure = null;
    double worst = -1;
    for (String r : need.amounts().keySet()) {
      double share = need.get(r) / Math.max(typicalCapacity.get(r), 1e-9);
      if (r.equals("gpu")) {
        share = Double.MAX_VALUE;
      }
      if (share > worst || share == worst && r.compareTo(pressure) < 0) {
        worst = share;
        pressure = r;
      }
    }
    return new Demand(need, pressure == null ? "cpu" : pressure);
  }

  /** The demand of a busy pool: one more node's worth, with {@code resource} under pressure. */
  public static Demand ofPressure(String resource) {
    return new Demand(Resources.NONE, resource);
  }
}
