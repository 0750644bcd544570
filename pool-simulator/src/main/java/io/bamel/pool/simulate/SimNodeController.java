package io.bamel.pool.simulate;

import io.bamel.inventory.cluster.PodRef;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.node.Action;
import io.bamel.node.Decision;
import io.bamel.node.NodeControllerConfig;
import io.bamel.node.NodeStateMachine;
import io.bamel.node.Observation;
import io.bamel.node.PowerReading;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The node controller of a simulation: every step of every server's lifecycle is decided by the
 * node controller's own {@link NodeStateMachine}, on the simulator's clock, from what the server's
 * world shows ({@link SimMachine}: the BMC's power state, the Kubernetes node and the pods on it)
 * and the timeouts of its pool's config; this class only carries the decisions out on that world,
 * as {@code NodeReconciler} carries them out on BMCs and Kubernetes.
 *
 * <ul>
 *   <li>A server is looked at when its spec's desired power changes (at once, as the inventory
 *       watch queues it), at each periodic sync pass of every server, and when the previous
 *       decision asked for it: after the poll interval, or after the retry backoff (base doubled
 *       per consecutive failure, capped). The intervals are {@link NodeControllerConfig}'s (5 s
 *       poll, 60 s sync, 1 s to 5 min backoff); unlike the controller's queue, without jitter, so
 *       that a run is deterministic.
 *   <li>Power actions go to the simulated BMC, which always accepts them (Redfish: graceful off
 *       supported); a drain cordons the node and evicts the pods the decision names, which leave it
 *       after the termination time; an admission labels and uncordons it.
 *   <li>The status the decision gives is stored before anything else happens, as the controller
 *       writes a power action ahead.
 * </ul>
 */
final class SimNodeController {

  private final List<SimServer> servers;
  private final Map<String, PoolConfig> pools = new HashMap<>();
  private final NodeControllerConfig config;
  private final long shutdownSeconds;
  private final long terminationSeconds;
  private final long syncSeconds;
  private final Map<SimServer, Long> due = new HashMap<>();
  private final Map<SimServer, Integer> failures = new HashMap<>();
  private long nextSync;

  /**
   * The node controller of {@code servers} of {@code fleet} from {@code start}.
   *
   * @param shutdownSeconds how long a graceful power-off takes at the BMC
   * @param terminationSeconds how long an evicted pod takes to leave its server
   * @param config the controller's intervals and global timeouts
   */
  SimNodeController(
      Fleet fleet,
      List<SimServer> servers,
      long start,
      long shutdownSeconds,
      long terminationSeconds,
      NodeControllerConfig config) {
    this.servers = servers;
    this.config = config;
    this.shutdownSeconds = shutdownSeconds;
    this.terminationSeconds = terminationSeconds;
    this.syncSeconds = Math.max(1, config.syncInterval().toSeconds());
    this.nextSync = start + syncSeconds;
    fleet.pools().forEach(p -> pools.put(p.name(), p.config()));
  }

  /**
   * Brings every server's world to {@code now}, then looks at each server due (a sync pass, a poll,
   * a retry), in fleet order; returns the pods its drains evicted.
   */
  List<SimPod> tick(long now) {
    for (SimServer s : servers) {
      s.advance(now);
    }
    boolean sync = now >= nextSync;
    while (nextSync <= now) {
      nextSync += syncSeconds;
    }
    List<SimPod> evicted = new ArrayList<>();
    for (SimServer s : servers) {
      Long at = due.get(s);
      if (sync || (at != null && at <= now)) {
        look(s, now, evicted);
      }
    }
    return evicted;
  }

  /**
   * The desired power of {@code s} was just written: it is looked at now, as the inventory's watch
   * queues a node whose spec changed; returns the pods a drain evicted.
   */
  List<SimPod> specChanged(SimServer s, long now) {
    List<SimPod> evicted = new ArrayList<>();
    look(s, now, evicted);
    return evicted;
  }

  /** One reconciliation of {@code s} at {@code now}: observe, decide, store, act, requeue. */
  Decision look(SimServer s, long now, List<SimPod> evicted) {
    NodeSpec spec = s.spec();
    PoolConfig pool = pools.get(s.pool());
    Observation o =
        new Observation(
            spec,
            s.specRevision(),
            s.status(),
            PowerReading.of(s.machine().power()),
            SimKube.view(s, NodeStateMachine.needsPods(spec, s.status())),
            NodeStateMachine.timeouts(pool, config.timeouts()),
            pool == null ? Map.of() : pool.labels(),
            Instant.ofEpochSecond(now));
    Decision d = NodeStateMachine.decide(o);
    s.status(d.next());
    act(s, d.action(), now, evicted);
    requeue(s, d.requeue(), now);
    return d;
  }

  private void act(SimServer s, Action action, long now, List<SimPod> evicted) {
    SimMachine m = s.machine();
    switch (action.kind()) {
      case NONE -> {}
      case POWER -> {
        switch (action.power()) {
          case POWER_ON -> {
            s.countPowerOn();
            m.powerOn(now, s.postSeconds(), s.bootSeconds());
          }
          case POWER_OFF -> m.powerOff(now, shutdownSeconds);
          case POWER_OFF_FORCE -> m.forceOff();
          case POWER_CYCLE -> m.powerCycle(now, s.postSeconds(), s.bootSeconds());
        }
      }
      case DRAIN -> {
        m.cordon();
        for (PodRef ref : action.evict()) {
          for (SimPod pod : List.copyOf(s.pods())) {
            if (pod.name().equals(ref.name())) {
              s.evict(pod, now, terminationSeconds);
              evicted.add(pod);
            }
          }
        }
      }
      case ADMIT -> {
        m.label(action.labels());
        m.uncordon();
      }
      case LABEL -> m.label(action.labels());
      case UNCORDON -> m.uncordon();
    }
  }

  private void requeue(SimServer s, Decision.Requeue requeue, long now) {
    switch (requeue) {
      case POLL -> {
        failures.remove(s);
        due.put(s, now + seconds(config.pollInterval()));
      }
      case BACKOFF -> {
        int n = failures.merge(s, 1, Integer::sum);
        due.put(s, now + seconds(backoff(n)));
      }
      case NEXT_SYNC -> {
        failures.remove(s);
        due.remove(s);
      }
    }
  }

  /** The retry delay after the {@code n}th consecutive failure: base * 2^(n-1), capped. */
  Duration backoff(int n) {
    Duration base = config.backoffBase();
    Duration max = config.backoffMax();
    Duration delay = base;
    for (int i = 1; i < n && delay.compareTo(max) < 0; i++) {
      delay = delay.multipliedBy(2);
    }
    return delay.compareTo(max) > 0 ? max : delay;
  }

  private static long seconds(Duration d) {
    return Math.max(1, (d.toMillis() + 999) / 1000);
  }
}
