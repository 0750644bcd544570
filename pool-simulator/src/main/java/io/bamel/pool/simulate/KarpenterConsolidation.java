package io.bamel.pool.simulate;

import io.bamel.inventory.model.NodeState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Karpenter's provisioning and consolidation as its disruption documentation describes them, with
 * {@code consolidationPolicy: WhenEmptyOrUnderutilized}, on a fixed bare-metal fleet (no cheaper
 * replacement to launch, so consolidation is deletion):
 *
 * <ul>
 *   <li>Provisioning: pending pods make it launch the servers that, first-fit decreasing, hold them
 *       after the room of servers already launching (its batching window, at most 10 s, is within a
 *       step).
 *   <li>A node is consolidatable once no pod was bound to it or left it for {@code
 *       consolidateAfter} (0 s by default) and it has been Ready that long.
 *   <li>Empty consolidatable nodes are deleted together; otherwise one node whose pods all schedule
 *       on the other Ready nodes (a simulated scheduling run), the one with the fewest pods first
 *       (the least disruption cost), is deleted per step.
 *   <li>Never while pods of the pool are pending or its servers are launching (the scheduling
 *       simulation would give them the room), and within the disruption budget: at most 10 % of the
 *       pool's nodes (at least one) disrupted at once.
 * </ul>
 *
 * @see <a href="https://karpenter.sh/docs/concepts/disruption/">Karpenter: Disruption</a>
 */
public final class KarpenterConsolidation implements Autoscaler {

  /**
   * The settings that matter here.
   *
   * @param consolidateAfter the NodePool's {@code disruption.consolidateAfter}
   * @param budget the share of a pool's nodes that may be disrupted at once ({@code nodes: 10%})
   */
  public record Settings(Duration consolidateAfter, double budget) {

    /** {@code consolidateAfter: 0s}, budget 10 %. */
    public static final Settings DEFAULTS = new Settings(Duration.ZERO, 0.10);
  }

  private final Settings settings;

  /** With the defaults. */
  public KarpenterConsolidation() {
    this(Settings.DEFAULTS);
  }

  /** With these settings. */
  public KarpenterConsolidation(Settings settings) {
    this.settings = settings;
  }

  @Override
  public String name() {
    return "karpenter";
  }

  @Override
  public Decision decide(ClusterState state) {
    long now = state.now();
    long after = settings.consolidateAfter().toSeconds();
    List<String> on = new ArrayList<>();
    List<String> off = new ArrayList<>();
    for (FleetPool pool : state.fleet().pools()) {
      List<SimServer> servers = state.servers(pool.name());
      List<SimPod> pending = state.pending(pool.name());
      if (!pending.isEmpty()) {
        Packing.open(pending, Packing.comingUp(servers), Packing.off(servers))
            .forEach(s -> on.add(s.id()));
        continue;
      }
      if (servers.stream().anyMatch(SimServer::comingUp)) {
        continue;
      }
      long active = servers.stream().filter(SimServer::powered).count();
      long disrupting =
          servers.stream()
              .filter(s -> s.state() == NodeState.DRAINING || s.state() == NodeState.POWERING_OFF)
              .count();
      long budget = Math.max(1, (long) Math.floor(active * settings.budget())) - disrupting;
      if (budget <= 0) {
        continue;
      }
      List<SimServer> candidates =
          servers.stream()
              .filter(SimServer::schedulable)
              .filter(s -> now - s.lastPodChange() >= after && now - s.stateSince() >= after)
              .sorted(
                  Comparator.<SimServer>comparingInt(s -> s.pods().size())
                      .thenComparingDouble(s -> s.requested().get("cpu"))
                      .thenComparing(SimServer::id))
              .toList();
      List<SimServer> empty = candidates.stream().filter(s -> s.pods().isEmpty()).toList();
      if (!empty.isEmpty()) {
        empty.stream().limit(budget).forEach(s -> off.add(s.id()));
        continue;
      }
      for (SimServer s : candidates) {
        if (Packing.fitsIn(s.pods(), Packing.freeRoom(servers, Set.of(s)))) {
          off.add(s.id());
          break;
        }
      }
    }
    return new Decision(on, off);
  }
}
