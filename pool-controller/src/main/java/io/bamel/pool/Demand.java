package io.bamel.pool;

import java.util.ArrayList;
import java.util.List;

/**
 * What a scale-up must provide: the resources asked for, the resource under the most pressure (the
 * one that decides which node fits best), and the other resources that count in the fit (at 0.25 of
 * the pressure resource's weight, see {@link NodeSelector}).
 *
 * @param need the requests to hold ({@link Resources#NONE} for a busy pool: one more node's worth)
 * @param pressure the resource under pressure
 * @param others the other resources scored: the other needed ones for pending pods, the other
 *     considered ones for a busy pool
 */
public record Demand(Resources need, String pressure, List<String> others) {

  /** Copies the list. */
  public Demand {
    others = List.copyOf(others);
  }

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
    String p = pressure == null ? "cpu" : pressure;
    List<String> others = new ArrayList<>(need.amounts().keySet());
    others.remove(p);
    others.sort(null);
    return new Demand(need, p, others);
  }

  /**
   * The demand of a busy pool: one more node's worth, with {@code resource} under pressure and the
   * pool's other {@code considered} resources scored beside it.
   */
  public static Demand ofPressure(String resource, List<String> considered) {
    List<String> others = new ArrayList<>(considered);
    others.remove(resource);
    others.sort(null);
    return new Demand(Resources.NONE, resource, others);
  }
}
