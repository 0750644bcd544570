package io.bamel.pool;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.DisconnectedCluster;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.leader.LeaderElection;
import io.bamel.inventory.leader.LeadershipListener;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.Pool;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PoolStatus;
import io.bamel.inventory.model.PowerState;
import io.bamel.inventory.model.ScalingTrigger;
import io.bamel.inventory.store.ConflictException;
import io.bamel.inventory.store.DesiredPowerChange;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.FencedException;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.store.InventoryException;
import io.bamel.inventory.store.WriteFence;
import io.bamel.pool.ScalingDecision.Choice;
import io.bamel.pool.ScalingDecision.Direction;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pool controller: while this process leads ({@link LeaderElection} for {@code
 * pool-controller}), every {@code interval} (15 s by default) it decides for each configured pool
 * and acts.
 *
 * <p>One cycle: read the cluster once ({@link ClusterView}); evaluate every configured pool's
 * triggers at once ({@link PrometheusTriggers}, bounded concurrency, one time budget for the
 * cycle); build each pool's snapshot from the inventory cache ({@link SnapshotBuilder}); assign
 * each pending pod to the one pool that serves it ({@link PodPools}); then for each pool, in name
 * order: decide ({@link ScalingPolicy}) and write the decision — the chosen nodes' desired {@code
 * powerState} with an event each, and the pool status — in one etcd transaction fenced by
 * leadership ({@link EtcdInventory#applyPoolDecision}). A dry-run pool gets only its status, with
 * the decision recorded; a dry run repeating its last decision writes nothing, logs nothing and
 * counts nothing. A pool whose status would not change is not written. A node changed since the
 * cache read it makes the write fail; the next cycle decides again from fresh data. A write refused
 * by the fence (this process was deposed) ends the cycle. Then metrics ({@link PoolMetrics}) and
 * the energy estimate ({@link EnergyLedger}).
 *
 * <p>The low-utilization window and the last scale-up are kept in the pool status ({@link
 * PoolMemory}), so a new leader continues them. Pools without a config are left alone.
 *
 * <p>{@link #start()} schedules the loop; {@link #runCycle()} runs one cycle on the caller's thread
 * (tests, benchmarks). Thread-safe: cycles never overlap.
 */
public final class PoolController implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(PoolController.class);

  /** At most this many nodes are switched by one decision (one etcd transaction). */
  public static final int MAX_CHANGES_PER_DECISION = 25;

  /** The principal recorded in the events of desired-power changes. */
  public static final String PRINCIPAL = "pool-controller";

  /**
   * What one pool's decision came to in a cycle.
   *
   * @param pool the pool
   * @param decision the decision
   * @param revision the etcd revision of the write, or -1 when nothing was written
   * @param error why the write failed, or null
   */
  public record Outcome(String pool, ScalingDecision decision, long revision, String error) {

    /** The prefix of the error of a write refused because this process no longer leads. */
    public static final String FENCED = "fenced: ";

    /** Whether the write was refused because this process no longer leads (nothing written). */
    public boolean fenced() {
      return error != null && error.startsWith(FENCED);
    }
  }

  private final EtcdInventory store;
  private final InventoryCache cache;
  private final Cluster cluster;
  private final LeaderElection election;
  private final Clock clock;
  private final Duration interval;
  private final Predicate<Node> canPowerOff;
  private final PrometheusTriggers triggers;
  private final PoolMetrics metrics;
  private final EnergyLedger ledger;
  private final ScheduledExecutorService loop;

  // Guarded by this.
  private final Map<String, PoolMemory> memory = new HashMap<>();
  private final Map<String, PoolStatus> written = new HashMap<>();
  private final Map<String, List<String>> observedPools = new HashMap<>();
  private boolean started;
  private WriteFence lastFence;
  private ClusterView lastView;

  /** Set by the election thread (which must not wait for a cycle); read by the next cycle. */
  private final AtomicBoolean termChanged = new AtomicBoolean();

  private PoolController(Builder b) {
    this.store = Objects.requireNonNull(b.store, "store");
    this.cache = Objects.requireNonNull(b.cache, "cache");
    this.election = Objects.requireNonNull(b.election, "election");
    this.cluster = b.cluster;
    this.clock = b.clock;
    this.interval = b.interval;
    this.canPowerOff = b.canPowerOff;
    this.triggers =
        new PrometheusTriggers(
            b.prometheus, b.triggerBudget, PrometheusTriggers.DEFAULT_CONCURRENCY);
    this.metrics = new PoolMetrics(Objects.requireNonNull(b.registry, "registry"));
    this.ledger = new EnergyLedger(maxGap(b.interval));
    this.loop =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "pool-controller");
              t.setDaemon(true);
              return t;
            });
  }

  /** A builder; store, cache, election and registry are required. */
  public static Builder builder() {
    return new Builder();
  }

  /** Starts the loop: a cycle every interval while leading, and one as soon as leadership comes. */
  public synchronized PoolController start() {
    if (started) {
      return this;
    }
    started = true;
    election.addListener(
        new LeadershipListener() {
          @Override
          public void gained(WriteFence fence) {
            termChanged.set(true);
            submit();
          }

          @Override
          public void lost() {
            termChanged.set(true);
          }
        });
    long ms = interval.toMillis();
    loop.scheduleWithFixedDelay(this::cycleLogged, ms, ms, TimeUnit.MILLISECONDS);
    return this;
  }

  /**
   * Runs one cycle now on the caller's thread; does nothing (and returns nothing) unless this
   * process leads. When the leadership turns out to be lost at a write, that pool's outcome says so
   * ({@link Outcome#fenced()}) and the cycle stops there.
   */
  public synchronized List<Outcome> runCycle() {
    WriteFence fence = election.fence().orElse(null);
    if (fence == null) {
      return List.of();
    }
    if (!fence.equals(lastFence)) {
      termChanged.set(true);
      lastFence = fence;
    }
    if (termChanged.getAndSet(false)) {
      forget(); // a new term starts from what etcd holds, not from this process's memory
    }
    Instant now = clock.instant();
    ClusterView view = ClusterView.read(cluster, lastView);
    lastView = view;
    Map<String, List<Node>> byPool = new HashMap<>();
    for (Node n : cache.nodes()) {
      if (n.spec().pool() != null) {
        byPool.computeIfAbsent(n.spec().pool(), k -> new ArrayList<>()).add(n);
      }
    }
    List<Pool> pools = new ArrayList<>();
    for (Pool p : cache.pools()) {
      if (p.config() != null) {
        pools.add(p);
      }
    }
    pools.sort(Comparator.comparing(Pool::name));

    // 1. Every pool's triggers at once, within the trigger budget.
    Map<String, List<ScalingTrigger>> triggerLists = new HashMap<>();
    for (Pool p : pools) {
      triggerLists.put(p.name(), p.config().withDefaults().triggers());
    }
    Map<String, Votes> votes = triggers.evaluate(triggerLists, now);

    // 2. Snapshots, then each pending pod assigned to the one pool that serves it.
    Map<String, PoolSnapshot> snapshots = new HashMap<>();
    Map<String, Long> buildNanos = new HashMap<>();
    List<PodPools.Pool> assignable = new ArrayList<>();
    for (Pool p : pools) {
      long t0 = System.nanoTime();
      PoolConfig config = p.config().withDefaults();
      PoolMemory before = memory.computeIfAbsent(p.name(), k -> PoolMemory.from(p.status()));
      PoolSnapshot snapshot =
          SnapshotBuilder.build(
              config,
              byPool.getOrDefault(p.name(), List.of()),
              view,
              votes.getOrDefault(p.name(), Votes.NONE),
              before,
              canPowerOff,
              now);
      snapshots.put(p.name(), snapshot);
      if (!view.unschedulable().isEmpty()) {
        assignable.add(PodPools.Pool.of(p.name(), config, snapshot.members()));
      }
      buildNanos.put(p.name(), System.nanoTime() - t0);
    }
    Map<String, List<KubePod>> pending =
        view.unschedulable().isEmpty()
            ? Map.of()
            : PodPools.assign(view.unschedulable(), assignable);

    // 3. Decide and write, pool by pool.
    List<Outcome> outcomes = new ArrayList<>();
    List<EnergyLedger.Observation> energy = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Pool pool : pools) {
      seen.add(pool.name());
      List<Node> members = byPool.getOrDefault(pool.name(), List.of());
      long t0 = System.nanoTime();
      PoolConfig config = pool.config().withDefaults();
      PoolSnapshot snapshot =
          snapshots
              .get(pool.name())
              .withPending(
                  SnapshotBuilder.pending(pending.getOrDefault(pool.name(), List.of()), config));
      Outcome outcome =
          decide(
              pool,
              config,
              members,
              snapshot,
              votes.getOrDefault(pool.name(), Votes.NONE),
              fence,
              now);
      outcomes.add(outcome);
      if (outcome.fenced()) {
        log.warn("pool controller no longer leads; stopping this cycle: {}", outcome.error());
        break;
      }
      metrics.decisionSeconds((System.nanoTime() - t0 + buildNanos.get(pool.name())) / 1e9);
      for (Node n : members) {
        energy.add(
            new EnergyLedger.Observation(
                n.id(),
                pool.name(),
                n.state() == NodeState.OFF,
                n.state() == NodeState.READY,
                n.readings() == null ? null : n.readings().powerWatts(),
                n.spec().idlePowerWatts()));
      }
    }
    if (!outcomes.isEmpty() && outcomes.get(outcomes.size() - 1).fenced()) {
      return outcomes;
    }
    ledger.observe(now, energy).forEach(metrics::energySaved);
    for (String gone : new ArrayList<>(observedPools.keySet())) {
      if (!seen.contains(gone)) {
        metrics.forget(gone, observedPools.remove(gone));
        memory.remove(gone);
        written.remove(gone);
      }
    }
    return outcomes;
  }

  private Outcome decide(
      Pool pool,
      PoolConfig config,
      List<Node> members,
      PoolSnapshot snapshot,
      Votes votes,
      WriteFence fence,
      Instant now) {
    String name = pool.name();
    boolean dryRun = Boolean.TRUE.equals(config.dryRun());
    PoolMemory before = memory.get(name);
    ScalingDecision decision = capped(ScalingPolicy.decide(config, snapshot, now));
    PoolMemory after = PoolStatuses.memoryAfter(before, decision, dryRun, now);
    PoolStatus previous = written.getOrDefault(name, pool.status());
    PoolStatus status =
        PoolStatuses.next(
            previous, snapshot, decision, votes, after, config.resources(), dryRun, now);
    // A dry run repeating its last decision is no news: not logged, not counted again.
    boolean news =
        decision.direction() != Direction.NONE
            && !(dryRun && PoolStatuses.sameDecision(previous, decision, true));
    Map<String, Node> byId = new HashMap<>();
    members.forEach(n -> byId.put(n.id(), n));
    long revision = -1;
    String error = null;
    try {
      if (decision.direction() != Direction.NONE && !dryRun) {
        List<DesiredPowerChange> changes = new ArrayList<>();
        for (Choice c : decision.powerOn()) {
          changes.add(change(byId.get(c.node()), PowerState.ON, "pool-scale-up", c, name, now));
        }
        for (Choice c : decision.powerOff()) {
          changes.add(change(byId.get(c.node()), PowerState.OFF, "pool-scale-down", c, name, now));
        }
        revision = store.applyPoolDecision(name, changes, status, fence);
      } else if (!status.equals(previous)) {
        revision = store.putPoolStatus(name, status, fence);
      }
      if (revision >= 0) {
        written.put(name, status);
      }
      memory.put(name, after);
    } catch (FencedException e) {
      // Deposed: nothing was written; the new leader decides from what etcd holds.
      return new Outcome(name, decision, -1, Outcome.FENCED + e.getMessage());
    } catch (ConflictException e) {
      error = "conflict: " + e.getMessage();
      log.info("pool {}: decision not written, deciding again next cycle: {}", name, error);
    } catch (InventoryException e) {
      error = e.getMessage();
      log.warn("pool {}: decision not written: {}", name, error);
    }
    if (news) {
      log.info(DecisionLog.line(name, decision, dryRun, revision));
      if (error == null) {
        metrics.decided(name, decision);
      }
    }
    double watts = 0;
    for (Node n : members) {
      if (n.readings() != null && n.readings().powerWatts() != null) {
        watts += n.readings().powerWatts();
      }
    }
    metrics.observe(name, snapshot, decision, config.resources(), watts);
    metrics.thresholds(name, config.scaleUpThreshold(), config.scaleDownThreshold());
    observedPools.put(name, config.resources());
    return new Outcome(name, decision, revision, error);
  }

  private static DesiredPowerChange change(
      Node node, PowerState power, String reason, Choice choice, String pool, Instant now) {
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

  private void forget() {
    memory.clear();
    written.clear();
    triggers.reset();
    ledger.reset();
  }

  private void submit() {
    try {
      loop.execute(this::cycleLogged);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closing
    }
  }

  private void cycleLogged() {
    try {
      runCycle();
    } catch (RuntimeException e) {
      log.warn("pool controller cycle failed: {}", e.toString());
    }
  }

  private static Duration maxGap(Duration interval) {
    Duration four = interval.multipliedBy(4);
    return four.compareTo(Duration.ofMinutes(1)) > 0 ? four : Duration.ofMinutes(1);
  }

  /** Stops the loop (a cycle under way finishes). Leadership is the election's owner's to end. */
  @Override
  public void close() {
    loop.shutdownNow();
    try {
      loop.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    triggers.close();
  }

  /** Builds a {@link PoolController}. */
  public static final class Builder {
    private EtcdInventory store;
    private InventoryCache cache;
    private Cluster cluster = DisconnectedCluster.INSTANCE;
    private LeaderElection election;
    private PrometheusRegistry registry;
    private Clock clock = Clock.systemUTC();
    private Duration interval = Duration.ofSeconds(15);
    private Predicate<Node> canPowerOff = PowerOffSupport.conservative();
    private InstantQuery prometheus;
    private Duration triggerBudget = PrometheusTriggers.DEFAULT_BUDGET;

    private Builder() {}

    /** The store the decisions are written through (required). */
    public Builder store(EtcdInventory store) {
      this.store = store;
      return this;
    }

    /** The inventory cache decisions read from (required, started by the caller). */
    public Builder cache(InventoryCache cache) {
      this.cache = cache;
      return this;
    }

    /** The Kubernetes cluster (default: none, so utilization is unknown). */
    public Builder cluster(Cluster cluster) {
      this.cluster = cluster;
      return this;
    }

    /** The election of component {@code pool-controller} (required, started by the caller). */
    public Builder election(LeaderElection election) {
      this.election = election;
      return this;
    }

    /** Where the metrics are registered (required). */
    public Builder registry(PrometheusRegistry registry) {
      this.registry = registry;
      return this;
    }

    /** The clock of decisions, windows and events (default: the system's, UTC). */
    public Builder clock(Clock clock) {
      this.clock = clock;
      return this;
    }

    /** The time between cycles (default 15 s). */
    public Builder interval(Duration interval) {
      if (interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("the interval must be positive");
      }
      this.interval = interval;
      return this;
    }

    /** Whether a node's driver can switch it off (default {@link PowerOffSupport#conservative}). */
    public Builder canPowerOff(Predicate<Node> canPowerOff) {
      this.canPowerOff = canPowerOff;
      return this;
    }

    /** Where trigger queries go (default: none; triggers never vote). */
    public Builder prometheus(InstantQuery prometheus) {
      this.prometheus = prometheus;
      return this;
    }

    /**
     * How long one cycle waits, in all, for the answers to its trigger queries (default 5 s); they
     * run concurrently, and a query not answered in time counts as failed.
     */
    public Builder triggerBudget(Duration budget) {
      if (budget.isNegative() || budget.isZero()) {
        throw new IllegalArgumentException("the trigger budget must be positive");
      }
      this.triggerBudget = budget;
      return this;
    }

    /** The controller; call {@link PoolController#start()}. */
    public PoolController build() {
      return new PoolController(this);
    }
  }
}
