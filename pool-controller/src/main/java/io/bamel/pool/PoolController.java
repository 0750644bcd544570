package io.bamel.pool;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.DisconnectedCluster;
import io.bamel.inventory.leader.LeaderElection;
import io.bamel.inventory.leader.LeadershipListener;
import io.bamel.inventory.logging.FailureLog;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.Pool;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PoolStatus;
import io.bamel.inventory.model.ScalingTrigger;
import io.bamel.inventory.runtime.CoreThreads;
import io.bamel.inventory.store.ConflictException;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.FencedException;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.store.InventoryException;
import io.bamel.inventory.store.WriteFence;
import io.bamel.pool.history.DemandHistory;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
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
 * triggers at once ({@link TriggerEvaluators}: one {@link TriggerEvaluator} per trigger kind;
 * {@link PrometheusTriggers}, the default kind, runs its queries with bounded concurrency and one
 * time budget for the cycle); then the pure {@link CyclePlan} builds every pool's snapshot, assigns
 * pending pods and plans each pool ({@link PoolPlan}: the decision, the next status and memory, the
 * desired-power changes with their events). This class only applies each plan, in pool name order:
 * the changes and the status in one etcd transaction fenced by leadership ({@link
 * EtcdInventory#applyPoolDecision}), or the status alone, or nothing when it would not change or
 * only its utilization moved within the tolerance of {@link PoolStatusWrites} (the metrics still
 * show the exact utilization, from this cycle's snapshot); a dry run repeating its last decision
 * logs nothing and counts nothing. A node changed since the cache read it makes the write fail
 * ({@link AppliedPlan.Result#CONFLICT}); the next cycle decides again from fresh data. A write
 * refused by the fence ({@link AppliedPlan.Result#FENCED}: this process was deposed) ends the
 * cycle. Then metrics ({@link PoolMetrics}) and the energy estimate ({@link EnergyLedger}).
 *
 * <p>The low-utilization window and the last scale-up are kept in the pool status ({@link
 * PoolMemory}), so a new leader continues them. Each pool's demand history ({@link DemandHistory}:
 * its demand at each hour of the week) observes every cycle's demand and is kept in etcd by {@link
 * PoolHistories}: read once per leadership term, written once per closed hour, fenced like the
 * status. Pools without a config are left alone.
 *
 * <p>Besides the interval, a pod becoming unschedulable wakes the loop ({@link #wake()}, through
 * the cluster's watch): a cycle runs {@code wakeDelay} (100 ms) later, every wake-up until then
 * joining it, so a pending pod gets its decision well within a second rather than at the next tick.
 *
 * <p>{@link #start()} schedules the loop; {@link #runCycle()} runs one cycle on the caller's thread
 * (tests, benchmarks). Thread-safe: cycles never overlap.
 */
public final class PoolController implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(PoolController.class);

  /**
   * What one pool's plan came to in a cycle.
   *
   * @param pool the pool
   * @param decision the decision
   * @param revision the etcd revision of the write, or -1 when nothing was written
   * @param result how applying the plan went
   * @param error why the write failed (a person's text), or null
   */
  public record AppliedPlan(
      String pool, ScalingDecision decision, long revision, Result result, String error) {

    /** How applying a pool's plan went. */
    public enum Result {
      /** The decision or status was written at {@link AppliedPlan#revision()}. */
      WRITTEN,
      /** Nothing needed writing. */
      UNCHANGED,
      /** A node or the status changed since the cache read it; the next cycle decides again. */
      CONFLICT,
      /** etcd failed; the next cycle decides again. */
      FAILED,
      /** Refused by the leadership fence: this process no longer leads; nothing was written. */
      FENCED
    }

    /** Whether the write was refused because this process no longer leads (nothing written). */
    public boolean fenced() {
      return result == Result.FENCED;
    }
  }

  private final EtcdInventory store;
  private final InventoryCache cache;
  private final Cluster cluster;
  private final LeaderElection election;
  private final Clock clock;
  private final Duration interval;
  private final Predicate<Node> canPowerOff;
  private final TriggerEvaluators triggers;
  private final PoolMetrics metrics;
  private final EnergyLedger ledger;
  private final PoolHistories histories;
  private final ScheduledExecutorService loop;
  private final Runnable cycle = CoreThreads.guarded("pool controller cycle", log, this::runCycle);

  /** Trigger queries that fail, Kubernetes outages, pool configs gone: WARN once, INFO at end. */
  private final FailureLog triggerLog;

  private final FailureLog kubeLog;
  private final FailureLog configLog;

  // Guarded by this.
  private final Map<String, PoolMemory> memory = new HashMap<>();
  private final Map<String, Written> written = new HashMap<>();
  private final Map<String, List<String>> observedPools = new HashMap<>();
  private boolean started;
  private WriteFence lastFence;
  private ClusterView lastView;

  private final Duration wakeDelay;
  private final PoolStatusWrites statusWrites;

  /** Whether a wake-up cycle is already scheduled (pending-pod events coalesce into it). */
  private final AtomicBoolean wakeScheduled = new AtomicBoolean();

  /** Set by the election thread (which must not wait for a cycle); read by the next cycle. */
  private final AtomicBoolean termChanged = new AtomicBoolean();

  private PoolController(Builder b) {
    this.store = Objects.requireNonNull(b.store, "store");
    this.cache = Objects.requireNonNull(b.cache, "cache");
    this.election = Objects.requireNonNull(b.election, "election");
    this.cluster = b.cluster;
    this.clock = b.clock;
    this.interval = b.interval;
    this.wakeDelay = b.wakeDelay;
    this.statusWrites = b.statusWrites;
    this.canPowerOff = b.canPowerOff;
    List<TriggerEvaluator> evaluators = new ArrayList<>();
    evaluators.add(
        new PrometheusTriggers(
            b.prometheus, b.triggerBudget, PrometheusTriggers.DEFAULT_CONCURRENCY));
    evaluators.addAll(b.triggerEvaluators);
    this.triggers = new TriggerEvaluators(evaluators);
    this.metrics = new PoolMetrics(Objects.requireNonNull(b.registry, "registry"));
    this.ledger = new EnergyLedger(maxGap(b.interval));
    this.histories = new PoolHistories(store, b.clock);
    this.loop = Executors.newSingleThreadScheduledExecutor(CoreThreads.factory("pool-controller"));
    this.triggerLog = new FailureLog(log, "pool", "trigger-query", b.clock);
    this.kubeLog = new FailureLog(log, "cluster", "kubernetes-read", b.clock);
    this.configLog = new FailureLog(log, "pool", "pool-config", b.clock);
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
    cluster.onPendingPod(pod -> wake());
    return this;
  }

  /**
   * Asks for a cycle soon: {@code wakeDelay} (100 ms by default) after the first request, every
   * request until then joining it, so a burst of new pending pods costs one cycle, not one each.
   * Called by the cluster's watch when a pod becomes unschedulable; returns at once.
   */
  public void wake() {
    if (!wakeScheduled.compareAndSet(false, true)) {
      return;
    }
    try {
      loop.schedule(
          () -> {
            wakeScheduled.set(false);
            cycleLogged();
          },
          wakeDelay.toMillis(),
          TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      wakeScheduled.set(false); // closing
    }
  }

  /**
   * Runs one cycle now on the caller's thread; does nothing (and returns nothing) unless this
   * process leads. When the leadership turns out to be lost at a write, that pool's outcome says so
   * ({@link AppliedPlan#fenced()}) and the cycle stops there.
   */
  public synchronized List<AppliedPlan> runCycle() {
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
    if (!view.known() && cluster.enabled()) {
      kubeLog.failed("kubernetes", "unavailable", view.reason());
    } else {
      kubeLog.recovered("kubernetes");
    }
    List<Pool> pools = CyclePlan.configured(cache.pools());
    Map<String, List<ScalingTrigger>> triggerLists = new HashMap<>();
    for (Pool p : pools) {
      triggerLists.put(p.name(), p.config().withDefaults().triggers());
    }
    Map<String, Votes> votes = triggers.evaluate(triggerLists, now);
    votes.forEach(this::logTriggers);
    Map<String, DemandHistory> before = histories.current(pools);
    long prepareStart = System.nanoTime();
    CyclePlan cycle =
        CyclePlan.prepare(pools, cache.nodes(), view, votes, memory, before, canPowerOff, now);
    long prepareShare = pools.isEmpty() ? 0 : (System.nanoTime() - prepareStart) / pools.size();

    List<AppliedPlan> outcomes = new ArrayList<>();
    List<EnergyLedger.Observation> energy = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Pool pool : pools) {
      seen.add(pool.name());
      configLog.recovered(pool.name());
      long t0 = System.nanoTime();
      Written last = written.get(pool.name());
      PoolPlan plan = cycle.plan(pool, last == null ? null : last.status());
      memory.putIfAbsent(pool.name(), plan.memoryBefore());
      AppliedPlan outcome = apply(plan, fence, now);
      outcomes.add(outcome);
      if (outcome.fenced()) {
        log.warn("pool controller no longer leads; stopping this cycle: {}", outcome.error());
        return outcomes;
      }
      metrics.decisionSeconds((System.nanoTime() - t0 + prepareShare) / 1e9);
      energy.addAll(cycle.energy(pool.name()));
      histories.update(pool.name(), cycle.history(pool.name()));
      try {
        histories.persist(pool.name(), fence);
      } catch (FencedException e) {
        log.warn("pool controller no longer leads; stopping this cycle: {}", e.getMessage());
        return outcomes;
      }
    }
    ledger.observe(now, energy).forEach(metrics::energySaved);
    for (String gone : new ArrayList<>(observedPools.keySet())) {
      if (!seen.contains(gone)) {
        logConfigGone(gone);
        metrics.forget(gone, observedPools.remove(gone));
        memory.remove(gone);
        written.remove(gone);
        histories.remove(gone);
      }
    }
    return outcomes;
  }

  /** A WARN when a pool's trigger queries cannot be answered, an INFO when they are again. */
  private void logTriggers(String pool, Votes v) {
    if (v.available()) {
      triggerLog.recovered(pool);
    } else {
      String reason = v.reason() == null ? "unavailable" : v.reason();
      triggerLog.failed(
          pool, reason.startsWith("no Prometheus") ? "no-prometheus" : "trigger-query", reason);
    }
  }

  /**
   * A pool decided for until now is not any more: a WARN when it still exists without a config
   * (wiped, or stored in a form this process cannot read), nothing when it was deleted.
   */
  private void logConfigGone(String name) {
    triggerLog.forget(name);
    if (cache.pool(name).isPresent()) {
      configLog.failed(
          name,
          "no-config",
          "the pool's config is gone (removed, or unreadable: see"
              + " bamel_inventory_unreadable_values_total); its nodes are left alone");
    } else {
      configLog.forget(name);
    }
  }

  /** Writes one pool's plan, fenced by leadership, and records it in memory, logs and metrics. */
  private AppliedPlan apply(PoolPlan plan, WriteFence fence, Instant now) {
    String name = plan.pool();
    ScalingDecision decision = plan.decision();
    long revision = -1;
    AppliedPlan.Result result = AppliedPlan.Result.UNCHANGED;
    String error = null;
    try {
      revision =
          switch (plan.write(statusWrites, writtenAt(name), now)) {
            case DECISION -> store.applyPoolDecision(name, plan.changes(), plan.status(), fence);
            case STATUS -> store.putPoolStatus(name, plan.status(), fence);
            case NOTHING -> -1;
          };
      if (revision >= 0) {
        written.put(name, new Written(plan.status(), now));
        result = AppliedPlan.Result.WRITTEN;
      }
      memory.put(name, plan.memoryAfter());
    } catch (FencedException e) {
      // Deposed: nothing was written; the new leader decides from what etcd holds.
      return new AppliedPlan(name, decision, -1, AppliedPlan.Result.FENCED, e.getMessage());
    } catch (ConflictException e) {
      result = AppliedPlan.Result.CONFLICT;
      error = "conflict: " + e.getMessage();
      log.info("pool {}: decision not written, deciding again next cycle: {}", name, error);
    } catch (InventoryException e) {
      result = AppliedPlan.Result.FAILED;
      error = e.getMessage();
      log.atWarn()
          .addKeyValue("pool", name)
          .addKeyValue("reason", error)
          .log("pool {}: decision not written: {}", name, error);
    }
    if (plan.news()) {
      log.atInfo()
          .addKeyValue("pool", name)
          .addKeyValue("action", "scale-" + decision.direction().name().toLowerCase(Locale.ROOT))
          .addKeyValue("reason", decision.reason())
          .log(DecisionLog.line(name, decision, plan.dryRun(), revision));
      if (error == null) {
        metrics.decided(name, decision);
      }
    }
    PoolConfig config = plan.config();
    metrics.observe(name, plan.snapshot(), decision, config.resources(), plan.watts());
    metrics.thresholds(name, config.scaleUpThreshold(), config.scaleDownThreshold());
    observedPools.put(name, config.resources());
    return new AppliedPlan(name, decision, revision, result, error);
  }

  /** When this process last wrote pool {@code name}'s status (null: not since it leads). */
  private Instant writtenAt(String name) {
    Written last = written.get(name);
    return last == null ? null : last.at();
  }

  /** The status this process last wrote for a pool, and when. */
  private record Written(PoolStatus status, Instant at) {}

  private void forget() {
    memory.clear();
    written.clear();
    histories.forget();
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
    cycle.run();
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
    private final List<TriggerEvaluator> triggerEvaluators = new ArrayList<>();
    private Duration wakeDelay = Duration.ofMillis(100);
    private PoolStatusWrites statusWrites = PoolStatusWrites.DEFAULTS;

    private Builder() {}

    /**
     * How long a wake-up by a new pending pod waits for others to join it before the cycle runs
     * (default 100 ms; zero runs at once).
     */
    public Builder wakeDelay(Duration wakeDelay) {
      if (wakeDelay.isNegative()) {
        throw new IllegalArgumentException("the wake delay must not be negative");
      }
      this.wakeDelay = wakeDelay;
      return this;
    }

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

    /**
     * Adds the evaluator of another trigger kind (a workload simulation's, say), closed with the
     * controller; the Prometheus kind is always there ({@link #prometheus}).
     */
    public Builder triggerEvaluator(TriggerEvaluator evaluator) {
      this.triggerEvaluators.add(Objects.requireNonNull(evaluator, "evaluator"));
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

    /**
     * When a status whose utilization alone moved is written (default {@link
     * PoolStatusWrites#DEFAULTS}: beyond 2 percentage points, or every 5 minutes).
     */
    public Builder statusWrites(PoolStatusWrites statusWrites) {
      this.statusWrites = Objects.requireNonNull(statusWrites, "statusWrites");
      return this;
    }

    /** The controller; call {@link PoolController#start()}. */
    public PoolController build() {
      return new PoolController(this);
    }
  }
}
