package io.bamel.pool;

import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.Pool;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PoolStatus;
import io.bamel.inventory.store.DesiredPowerChange;
import io.bamel.pool.ScalingDecision.Choice;
import io.bamel.pool.ScalingDecision.Direction;
import io.bamel.pool.history.DemandHistory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The pure side of one pool-controller cycle: from the inventory, the cluster view, the triggers'
 * votes, the pools' memories and their demand histories, it groups nodes by pool, builds each
 * configured pool's snapshot ({@link SnapshotBuilder}), assigns each pending pod to the one pool
 * that serves it ({@link PodPools}), folds each pool's demand of this cycle into its history
 * ({@link DemandHistory#observe}; the snapshot carries the result, {@link #history} gives it back
 * to be kept), and on request plans one pool ({@link #plan}): decide ({@link ScalingPolicy}), cap,
 * compute the next status and memory, and the desired-power changes with their events. No I/O, no
 * clock: the same inputs give the same plans.
 */
public final class CyclePlan {

  /** At most this many nodes are switched by one decision (one etcd transaction). */
  public static final int MAX_CHANGES_PER_DECISION = 25;

  /** The principal recorded in the events of desired-power changes. */
  public static final String PRINCIPAL = "pool-controller";

  private final List<Pool> pools;
  private final Map<String, List<Node>> byPool;
  private final Map<String, PoolSnapshot> snapshots;
  private final Map<String, PoolMemory> memories;
  private final Map<String, Votes> votes;
  private final Map<String, List<EnergyLedger.Observation>> energy;
  private final Map<String, Double> watts;
  private final Map<String, DemandHistory> histories;
  private final Instant now;

  private CyclePlan(
      List<Pool> pools,
      Map<String, List<Node>> byPool,
      Map<String, PoolSnapshot> snapshots,
      Map<String, PoolMemory> memories,
      Map<String, Votes> votes,
      Map<String, List<EnergyLedger.Observation>> energy,
      Map<String, Double> watts,
      Map<String, DemandHistory> histories,
      Instant now) {
    this.pools = pools;
    this.byPool = byPool;
    this.snapshots = snapshots;
    this.memories = memories;
    this.votes = votes;
    this.energy = energy;
    this.watts = watts;
    this.histories = histories;
    this.now = now;
  }

  /** The configured pools of {@code all}, in name order (pools without a config are left alone). */
  public static List<Pool> configured(Collection<Pool> all) {
    List<Pool> pools = new ArrayList<>();
    for (Pool p : all) {
      if (p.config() != null) {
        pools.add(p);
      }
    }
    pools.sort(Comparator.comparing(Pool::name));
    return pools;
  }

  /** Prepares a cycle without demand histories: each pool's starts empty ({@link #prepare}). */
  public static CyclePlan prepare(
      List<Pool> pools,
      Collection<Node> nodes,
      ClusterView view,
      Map<String, Votes> votes,
      Map<String, PoolMemory> memory,
      Predicate<Node> canPowerOff,
      Instant now) {
    return prepare(pools, nodes, view, votes, memory, Map.of(), canPowerOff, now);
  }

  /**
   * Prepares a cycle.
   *
   * @param pools the configured pools, in name order ({@link #configured})
   * @param nodes every node of the inventory
   * @param view the cluster as read this cycle
   * @param votes each pool's trigger votes (absent: none)
   * @param memory the pools' remembered windows (absent: taken from the pool's stored status)
   * @param histories the pools' demand histories before this cycle (absent: empty); each observes
   *     this cycle's demand (the requests of the pods on the pool's members plus those of the
   *     pending pods it serves) when the cluster view is known, and the result is in the pool's
   *     snapshot ({@link PoolSnapshot#history()}) and {@link #history}
   * @param canPowerOff whether bamel can switch a node off
   * @param now the cycle's time
   */
  public static CyclePlan prepare(
      List<Pool> pools,
      Collection<Node> nodes,
      ClusterView view,
      Map<String, Votes> votes,
      Map<String, PoolMemory> memory,
      Map<String, DemandHistory> histories,
      Predicate<Node> canPowerOff,
      Instant now) {
    Map<String, List<Node>> byPool = new HashMap<>();
    for (Node n : nodes) {
      if (n.spec().pool() != null) {
        byPool.computeIfAbsent(n.spec().pool(), k -> new ArrayList<>()).add(n);
      }
    }
    Map<String, PoolMemory> memories = new HashMap<>();
    Map<String, PoolSnapshot> snapshots = new HashMap<>();
    Map<String, List<EnergyLedger.Observation>> energy = new HashMap<>();
    Map<String, Double> watts = new HashMap<>();
    List<PodPools.Pool> assignable = new ArrayList<>();
    for (Pool p : pools) {
      PoolConfig config = p.config().withDefaults();
      PoolMemory before = memory.getOrDefault(p.name(), PoolMemory.from(p.status()));
      memories.put(p.name(), before);
      List<Node> members = byPool.getOrDefault(p.name(), List.of());
      PoolSnapshot snapshot =
          SnapshotBuilder.build(
              config,
              members,
              view,
              votes.getOrDefault(p.name(), Votes.NONE),
              before,
              canPowerOff,
              now);
      snapshots.put(p.name(), snapshot);
      // Read the members' readings now, while the snapshot has just brought them into the CPU's
      // cache, rather than in a second pass over 10,000 nodes after every pool is built.
      energy.put(p.name(), observations(p.name(), members));
      watts.put(p.name(), watts(members));
      if (!view.unschedulable().isEmpty()) {
        assignable.add(PodPools.Pool.of(p.name(), config, snapshot.members()));
      }
    }
    Map<String, List<KubePod>> pending =
        view.unschedulable().isEmpty()
            ? Map.of()
            : PodPools.assign(view.unschedulable(), assignable);
    Map<String, DemandHistory> learned = new HashMap<>();
    for (Pool p : pools) {
      PoolConfig config = p.config().withDefaults();
      List<PendingPod> pods =
          SnapshotBuilder.pending(pending.getOrDefault(p.name(), List.of()), config);
      PoolSnapshot snapshot = snapshots.get(p.name()).withPending(pods);
      DemandHistory history = histories.getOrDefault(p.name(), DemandHistory.empty());
      DemandTrend trend = memories.get(p.name()).demand();
      // This cycle's demand joins the pool's recent demand (the trend) and its history before the
      // policy reads them; with Kubernetes unreadable nothing is observed (no data is not zero
      // demand, and a window of zeros would read as a steep rise once it can be read again).
      if (view.known()) {
        Resources demand = snapshot.demandNow();
        trend = trend.observe(now, demand, config.scaleUpTrendWindow());
        history = history.observe(now, demand);
      }
      learned.put(p.name(), history);
      snapshots.put(p.name(), snapshot.withHistory(history).withDemand(trend));
    }
    return new CyclePlan(
        List.copyOf(pools), byPool, snapshots, memories, votes, energy, watts, learned, now);
  }

  /**
   * A pool's demand history after this cycle's observation, to keep for the next cycle ({@link
   * DemandHistory#empty()} for a pool not of this cycle).
   */
  public DemandHistory history(String pool) {
    return histories.getOrDefault(pool, DemandHistory.empty());
  }

  /** The configured pools of this cycle, in name order. */
  public List<Pool> pools() {
    return pools;
  }

  /** A pool's members as the cache held them. */
  public List<Node> members(String pool) {
    return byPool.getOrDefault(pool, List.of());
  }

  /**
   * Plans one pool of this cycle.
   *
   * @param pool one of {@link #pools()}
   * @param previous the status this process last wrote for it, or null to use the stored one
   */
  public PoolPlan plan(Pool pool, PoolStatus previous) {
    String name = pool.name();
    PoolConfig config = pool.config().withDefaults();
    boolean dryRun = Boolean.TRUE.equals(config.dryRun());
    Votes poolVotes = votes.getOrDefault(name, Votes.NONE);
    PoolMemory before = memories.get(name);
    PoolSnapshot snapshot = snapshots.get(name);
    ScalingDecision decision = capped(ScalingPolicy.decide(config, snapshot, now));
    PoolMemory after =
        PoolStatuses.memoryAfter(before, decision, dryRun, now).withDemand(snapshot.demand());
    PoolStatus last = previous != null ? previous : pool.status();
    PoolStatus status =
        PoolStatuses.next(
            last, snapshot, decision, poolVotes, after, config.resources(), dryRun, now);
    // A dry run repeating its last decision is no news: not logged, not counted again.
    boolean news =
        decision.direction() != Direction.NONE
            && !(dryRun && PoolStatuses.sameDecision(last, decision, true));
    List<DesiredPowerChange> changes = new ArrayList<>();
    if (decision.direction() != Direction.NONE && !dryRun) {
      Map<String, Node> byId = new HashMap<>();
      members(name).forEach(n -> byId.put(n.id(), n));
      for (Choice c : decision.powerOn()) {
        changes.add(change(byId.get(c.node()), DesiredPower.ON, "pool-scale-up", c, name));
      }
      for (Choice c : decision.powerOff()) {
        changes.add(change(byId.get(c.node()), DesiredPower.OFF, "pool-scale-down", c, name));
      }
    }
    return new PoolPlan(
        name,
        config,
        members(name),
        snapshot,
        poolVotes,
        decision,
        before,
        after,
        last,
        status,
        news,
        changes,
        watts.getOrDefault(name, 0.0));
  }

  /** What the energy estimate observes of a pool's members this cycle. */
  public List<EnergyLedger.Observation> energy(String pool) {
    return energy.getOrDefault(pool, List.of());
  }

  private static List<EnergyLedger.Observation> observations(String pool, List<Node> members) {
    List<EnergyLedger.Observation> out = new ArrayList<>(members.size());
    for (Node n : members) {
      out.add(
          new EnergyLedger.Observation(
              n.id(),
              pool,
              n.state() == NodeState.OFF,
              n.state() == NodeState.READY,
              n.readings() == null ? null : n.readings().powerWatts(),
              n.spec().idlePowerWatts()));
    }
    return out;
  }

  /** The members' summed power readings, in watts (nodes without a reading count 0). */
  private static double watts(List<Node> members) {
    double watts = 0;
    for (Node n : members) {
      if (n.readings() != null && n.readings().powerWatts() != null) {
        watts += n.readings().powerWatts();
      }
    }
    return watts;
  }

  private DesiredPowerChange change(
      Node node, DesiredPower power, String reason, Choice choice, String pool) {
    return new DesiredPowerChange(
        node.id(),
        node.specRevision(),
        power,
        NodeEvent.change(
            now,
            reason,
            "pool " + pool + " sets power " + power.json() + ": " + choice.reason(),
            PRINCIPAL,
            null));
  }

  /** The decision with at most {@link #MAX_CHANGES_PER_DECISION} nodes switched. */
  static ScalingDecision capped(ScalingDecision d) {
    int on = d.powerOn().size();
    int off = d.powerOff().size();
    if (on + off <= MAX_CHANGES_PER_DECISION) {
      return d;
    }
    int keepOn = Math.min(on, MAX_CHANGES_PER_DECISION);
    int keepOff = Math.min(off, MAX_CHANGES_PER_DECISION - keepOn);
    return new ScalingDecision(
        d.direction(),
        d.reason(),
        d.powerOn().subList(0, keepOn),
        d.powerOff().subList(0, keepOff),
        d.desiredNodes() - (on - keepOn) + (off - keepOff),
        d.lowSince(),
        d.utilizationKnown(),
        d.utilizationReason());
  }
}
