package io.bamel.pool.simulate;

import io.bamel.pool.Resources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * kproximate's rules as its README describes them, on a pool of identical servers:
 *
 * <ul>
 *   <li>It polls every {@code pollInterval} (10 s, its minimum: each step) for unschedulable pods
 *       and adds as many servers as their summed requests need, in the scarcest resource, beyond
 *       what servers already on their way offer (a new scaling event only when the one in progress
 *       cannot satisfy the requests).
 *   <li>Scaling down: when it is not scaling (nothing pending, nothing booting or draining) and the
 *       cluster's requests fit on n-1 servers while staying within the load headroom ({@code
 *       kpLoadHeadroom}, 0.2: each resource at most 80 % of n-1 servers), it removes the server
 *       with the least allocated resources, one at a time, none younger than {@code
 *       emptyGraceSecondsAfterCreation} (120 s).
 * </ul>
 *
 * @see <a href="https://github.com/jedrw/kproximate">kproximate</a>
 */
public final class KproximateRules implements Autoscaler {

  /**
   * Its settings.
   *
   * @param loadHeadroom {@code kpLoadHeadroom} (kproximate raises a value below 0.2 to 0.2)
   * @param emptyGrace {@code emptyGraceSecondsAfterCreation}
   * @param pollInterval {@code pollInterval}: it decides once per interval (at least 10 s)
   */
  public record Settings(double loadHeadroom, Duration emptyGrace, Duration pollInterval) {

    /** 0.2, 120 s and 10 s. */
    public static final Settings DEFAULTS =
        new Settings(0.2, Duration.ofSeconds(120), Duration.ofSeconds(10));

    /** These settings with the default poll interval. */
    public Settings(double loadHeadroom, Duration emptyGrace) {
      this(loadHeadroom, emptyGrace, Duration.ofSeconds(10));
    }
  }

  private final Settings settings;
  private long lastPoll = Long.MIN_VALUE / 2;

  /** With the defaults. */
  public KproximateRules() {
    this(Settings.DEFAULTS);
  }

  /** With these settings. */
  public KproximateRules(Settings settings) {
    this.settings = settings;
  }

  @Override
  public String name() {
    return "kproximate";
  }

  @Override
  public Decision decide(ClusterState state) {
    if (state.now() - lastPoll < settings.pollInterval().toSeconds()) {
      return Decision.NONE;
    }
    lastPoll = state.now();
    List<String> on = new ArrayList<>();
    List<String> off = new ArrayList<>();
    for (FleetPool pool : state.fleet().pools()) {
      List<SimServer> servers = state.servers(pool.name());
      Resources cap = pool.capacity();
      List<SimPod> pending = state.pending(pool.name());
      if (!pending.isEmpty()) {
        Resources need = Resources.sum(pending.stream().map(SimPod::requests).toList());
        Resources coming =
            Resources.sum(
                servers.stream().filter(SimServer::comingUp).map(SimServer::free).toList());
        int count = 0;
        for (var e : need.minus(coming).amounts().entrySet()) {
          count = Math.max(count, (int) Math.ceil(e.getValue() / cap.get(e.getKey())));
        }
        Packing.off(servers).stream().limit(count).forEach(s -> on.add(s.id()));
        continue;
      }
      boolean scaling = servers.stream().anyMatch(s -> s.powered() && !s.schedulable());
      List<SimServer> ready = servers.stream().filter(SimServer::schedulable).toList();
      if (scaling || ready.size() < 2) {
        continue;
      }
      Resources load = Resources.sum(ready.stream().map(SimServer::requested).toList());
      int fewer = ready.size() - 1;
      boolean fits = true;
      for (var e : cap.amounts().entrySet()) {
        if (load.get(e.getKey()) > fewer * e.getValue() * (1 - settings.loadHeadroom())) {
          fits = false;
        }
      }
      if (!fits) {
        continue;
      }
      long grace = settings.emptyGrace().toSeconds();
      ready.stream()
          .filter(s -> state.now() - s.stateSince() >= grace)
          .min(
              Comparator.<SimServer>comparingDouble(s -> s.utilization(List.of("cpu", "memory")))
                  .thenComparing(SimServer::id))
          .ifPresent(s -> off.add(s.id()));
    }
    return new Decision(on, off);
  }
}
