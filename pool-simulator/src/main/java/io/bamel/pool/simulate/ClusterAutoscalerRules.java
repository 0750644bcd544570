package io.bamel.pool.simulate;

import io.bamel.pool.Resources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * cluster-autoscaler's rules as its FAQ documents them ("How does scale-up work?", "How does
 * scale-down work?"), with its default flags, on bare-metal pools instead of cloud node groups:
 *
 * <ul>
 *   <li>Every scan ({@code --scan-interval}, 10 s: each step): pods that cannot be scheduled make
 *       it add the servers that, first-fit decreasing, hold them after the room of servers already
 *       on their way (CA counts upcoming nodes).
 *   <li>A Ready server whose pods' requests over its allocatable are below {@code
 *       --scale-down-utilization-threshold} (0.5) in CPU and memory (in GPUs alone for a GPU
 *       server, as CA does) is unneeded; one unneeded for {@code --scale-down-unneeded-time} (10
 *       min) is removed when its pods can move to the other Ready servers (first-fit decreasing
 *       into their free room).
 *   <li>No scale-down in a scan that scaled up, nor within {@code --scale-down-delay-after-add} (10
 *       min) of a scale-up. Empty servers go up to {@code --max-empty-bulk-delete} (10) at once, a
 *       server with pods one per scan.
 * </ul>
 *
 * @see <a href="https://github.com/kubernetes/autoscaler/blob/master/cluster-autoscaler/FAQ.md">
 *     cluster-autoscaler FAQ</a>
 */
public final class ClusterAutoscalerRules implements Autoscaler {

  /**
   * The flags that matter here.
   *
   * @param utilizationThreshold {@code --scale-down-utilization-threshold}
   * @param unneededTime {@code --scale-down-unneeded-time}
   * @param delayAfterAdd {@code --scale-down-delay-after-add}
   * @param maxEmptyBulkDelete {@code --max-empty-bulk-delete}
   */
  public record Settings(
      double utilizationThreshold,
      Duration unneededTime,
      Duration delayAfterAdd,
      int maxEmptyBulkDelete) {

    /** CA's defaults: 0.5, 10 min, 10 min, 10. */
    public static final Settings DEFAULTS =
        new Settings(0.5, Duration.ofMinutes(10), Duration.ofMinutes(10), 10);
  }

  private final Settings settings;
  private final Map<String, Long> unneededSince = new HashMap<>();
  private long lastScaleUp = Long.MIN_VALUE / 2;

  /** With CA's defaults. */
  public ClusterAutoscalerRules() {
    this(Settings.DEFAULTS);
  }

  /** With these flags. */
  public ClusterAutoscalerRules(Settings settings) {
    this.settings = settings;
  }

  @Override
  public String name() {
    return "cluster-autoscaler";
  }

  @Override
  public Decision decide(ClusterState state) {
    long now = state.now();
    List<String> on = new ArrayList<>();
    for (FleetPool pool : state.fleet().pools()) {
      List<SimPod> pending = state.pending(pool.name());
      if (!pending.isEmpty()) {
        List<SimServer> servers = state.servers(pool.name());
        Packing.open(pending, Packing.comingUp(servers), Packing.off(servers))
            .forEach(s -> on.add(s.id()));
      }
    }
    // The unneeded times run in every scan.
    for (SimServer s : state.servers()) {
      if (s.schedulable() && s.utilization(resources(s)) < settings.utilizationThreshold()) {
        unneededSince.putIfAbsent(s.id(), now);
      } else {
        unneededSince.remove(s.id());
      }
    }
    if (!on.isEmpty()) {
      lastScaleUp = now;
      return new Decision(on, List.of());
    }
    if (now < lastScaleUp + settings.delayAfterAdd().toSeconds()) {
      return Decision.NONE;
    }
    List<String> off = new ArrayList<>();
    Set<SimServer> removed = new HashSet<>();
    long unneeded = settings.unneededTime().toSeconds();
    List<SimServer> candidates =
        state.servers().stream()
            .filter(s -> s.schedulable())
            .filter(s -> unneededSince.containsKey(s.id()))
            .filter(s -> now - unneededSince.get(s.id()) >= unneeded)
            .toList();
    for (SimServer s : candidates) {
      if (s.pods().isEmpty() && off.size() < settings.maxEmptyBulkDelete()) {
        off.add(s.id());
        removed.add(s);
      }
    }
    if (!off.isEmpty()) {
      return new Decision(List.of(), off);
    }
    for (SimServer s : candidates) {
      Set<SimServer> without = new HashSet<>(removed);
      without.add(s);
      List<Resources> room = Packing.freeRoom(state.servers(s.pool()), without);
      if (Packing.fitsIn(s.pods(), room)) {
        return new Decision(List.of(), List.of(s.id()));
      }
    }
    return Decision.NONE;
  }

  /** What CA counts in a node's utilization: GPUs alone on a GPU node, else CPU and memory. */
  static List<String> resources(SimServer s) {
    return s.capacity().get("gpu") > 0 ? List.of("gpu") : List.of("cpu", "memory");
  }
}
