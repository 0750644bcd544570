package io.bamel.node;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.DisconnectedCluster;
import io.bamel.inventory.leader.LeaderElection;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.runtime.CoreThreads;
import io.bamel.inventory.sharding.ReplicaRegistry;
import io.bamel.inventory.store.ConflictException;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.FencedException;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.store.InventoryChange;
import io.bamel.inventory.store.InventoryListener;
import io.bamel.inventory.store.NodeChange;
import io.bamel.inventory.store.NotFoundException;
import io.bamel.inventory.store.PoolChange;
import io.bamel.power.PowerDriverRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Drives every node from its desired power state in etcd to a powered, joined (or drained and
 * switched off) machine.
 *
 * <ul>
 *   <li>Inputs: spec changes from the {@link InventoryCache} (and pool config changes, for the
 *       pool's members), and a periodic power sync of every node ({@link
 *       NodeControllerConfig#syncInterval()}, jittered).
 *   <li>A {@link WorkQueue} holds each node id once and hands it to at most one of {@link
 *       NodeControllerConfig#workers()} workers at a time; failures are retried with capped,
 *       jittered exponential backoff. Workers are virtual threads: one waiting for a BMC, the
 *       Kubernetes API or etcd holds no platform thread. What bounds the BMC traffic is a semaphore
 *       of {@link NodeControllerConfig#bmcConcurrency()} permits, one per call under way (for IPMI,
 *       one {@code ipmitool} process each).
 *   <li>A sync pass reads each node's power state once (one BMC read per node per pass), and the
 *       power draw of a powered-on node only when its last draw read is older than {@link
 *       NodeControllerConfig#readingsInterval()}.
 * </ul>
 *
 * <p>Who acts, one of two modes chosen at construction:
 *
 * <ul>
 *   <li><b>Leader</b> ({@link Builder#election}): only the leader of {@link #COMPONENT} acts, on
 *       every node ({@link LeaderElection}); every status write is fenced by its leadership key,
 *       and gaining leadership queues every node, so a standby continues from what etcd says.
 *   <li><b>Sharded</b> ({@link Builder#replicas}): every replica acts, each on the nodes the hash
 *       ring of live replicas gives it ({@link ReplicaRegistry}); no election. Its writes are
 *       fenced by its own replica key (alive as long as its lease). When the ring changes, the
 *       nodes a replica gains are queued and the ones it lost are dropped from its queue; a dead
 *       replica's nodes pass to the others within the lease TTL. Two replicas that briefly both
 *       believe they own a node cannot both send a power command: a power action is written ahead
 *       as a compare-and-swap on the status revision they both read, before the BMC is called, so
 *       one of them loses the swap and calls nothing (see {@link ShardOwnership}).
 * </ul>
 *
 * <p>It does not own the cache, store, drivers, cluster, election or registry it is given. {@link
 * #close()} stops taking work and lets reconciliations in progress finish, within {@link
 * NodeControllerConfig#shutdownTimeout()}, before it interrupts them; close the election or the
 * registry after it (the last status writes are fenced by them).
 */
public final class NodeController implements AutoCloseable {

  /** The component name: of the leader election, and of the {@code bamel_leader} gauge. */
  public static final String COMPONENT = "node-controller";

  private static final Logger log = LoggerFactory.getLogger(NodeController.class);

  private final NodeControllerConfig config;
  private final InventoryCache cache;
  private final Ownership ownership;
  private final ScheduledExecutorService timer;
  private final WorkQueue queue;
  private final NodeMetrics metrics;
  private final NodeReconciler reconciler;
  private final Set<String> syncDue = ConcurrentHashMap.newKeySet();
  private final AtomicInteger busy = new AtomicInteger();
  private final InventoryListener listener = this::onChange;
  private Workers workers;
  private volatile boolean closed;

  private NodeController(Builder b) {
    Objects.requireNonNull(b.cache, "cache");
    Objects.requireNonNull(b.store, "store");
    Objects.requireNonNull(b.drivers, "drivers");
    Objects.requireNonNull(b.registry, "registry");
    if ((b.election == null) == (b.replicas == null)) {
      throw new IllegalArgumentException(
          "a node controller needs either an election or a replica registry, not both");
    }
    this.config = b.config;
    this.cache = b.cache;
    this.ownership =
        b.replicas != null ? new ShardOwnership(b.replicas) : new LeaderOwnership(b.election);
    this.timer = Executors.newSingleThreadScheduledExecutor(CoreThreads.factory(COMPONENT));
    this.queue = new WorkQueue(timer, config.backoffBase(), config.backoffMax());
    this.metrics =
        new NodeMetrics(b.registry, cache, ownership.component(), this::isActive, queue::depth);
    this.reconciler = new NodeReconciler(b, ownership, metrics);
  }

  /** A builder; cache, store, drivers, registry, and an election or replicas are required. */
  public static Builder builder() {
    return new Builder();
  }

  /** Starts the workers, the sync, and listening to the cache and the ownership; returns this. */
  public synchronized NodeController start() {
    if (config.workers() < config.bmcConcurrency()) {
      log.info(
          "node controller: {} workers, so at most {} of the {} allowed BMC calls run at once",
          config.workers(),
          config.workers(),
          config.bmcConcurrency());
    }
    workers = new Workers(config.workers(), this::work);
    cache.addListener(listener);
    ownership.listen(h -> onTimer(() -> handOver(h)));
    scheduleSync();
    return this;
  }

  /** Whether this controller acts now: it leads, or (sharded) it is live on the ring. */
  public boolean isActive() {
    return ownership.active() && !closed;
  }

  /** Queues one node now (an operator's "reconcile now"); skipped when another replica owns it. */
  public void enqueue(String id) {
    queue.add(id);
  }

  private void onChange(InventoryChange change) {
    if (closed) {
      return;
    }
    if (change instanceof PoolChange p) {
      onPoolChange(p);
      return;
    }
    if (!(change instanceof NodeChange c)) {
      return;
    }
    if (c.current() == null) {
      reconciler.forget(c.id());
    } else if ((c.previous() == null || c.specChanged() || inspectRequested(c))
        && ownership.owns(c.id())) {
      queue.add(c.id());
    }
  }

  /** Whether {@code c} brought a new inspection request ({@code status.inspectRequestedAt}). */
  private static boolean inspectRequested(NodeChange c) {
    Instant now = c.current().status() == null ? null : c.current().status().inspectRequestedAt();
    Instant before =
        c.previous() == null || c.previous().status() == null
            ? null
            : c.previous().status().inspectRequestedAt();
    return now != null && !now.equals(before);
  }

  /** A pool's config (timeouts, labels) changed: its members are looked at again. */
  private void onPoolChange(PoolChange p) {
    PoolConfig before = p.previous() == null ? null : p.previous().config();
    PoolConfig after = p.current() == null ? null : p.current().config();
    if (p.current() == null || Objects.equals(before, after)) {
      return;
    }
    p.current().members().stream().filter(ownership::owns).forEach(queue::add);
  }

  /** Ownership changed: the nodes gained are looked at, the ones lost leave the queue. */
  private void handOver(Ownership.Handover h) {
    if (closed) {
      return;
    }
    int gained = 0;
    int lost = 0;
    for (Node node : cache.nodes()) {
      String id = node.id();
      if (h.gained().test(id)) {
        queue.add(id);
        gained++;
      } else if (h.lost().test(id)) {
        queue.remove(id);
        syncDue.remove(id);
        lost++;
      }
    }
    log.info(
        "node controller: {}: looking at {} nodes gained, dropping {} lost", h.why(), gained, lost);
  }

  private void onTimer(Runnable task) {
    try {
      timer.execute(CoreThreads.guarded("node ownership change", log, task));
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closed
    }
  }

  private void scheduleSync() {
    double jitter = config.syncJitter() * (2 * ThreadLocalRandom.current().nextDouble() - 1);
    long delay = (long) (config.syncInterval().toNanos() * (1 + jitter));
    try {
      timer.schedule(
          () -> {
            CoreThreads.guarded("node power sync", log, this::syncPass).run();
            scheduleSync();
          },
          delay,
          TimeUnit.NANOSECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closed
    }
  }

  /** Queues every node this controller owns for a power sync. */
  private void syncPass() {
    if (closed || !ownership.active()) {
      return;
    }
    for (Node node : cache.nodes()) {
      String id = node.id();
      if (ownership.owns(id)) {
        syncDue.add(id);
        queue.add(id);
      }
    }
  }

  private void work() {
    while (!closed) {
      String id;
      try {
        id = queue.take();
      } catch (InterruptedException e) {
        return;
      }
      if (id == null) {
        return;
      }
      long start = System.nanoTime();
      busy.incrementAndGet();
      MDC.put("node", id); // a field of every line logged for this node (JSON logs)
      try {
        if (!ownership.owns(id)) {
          continue;
        }
        NodeReconciler.Reconciled done = reconciler.reconcile(id, syncDue.remove(id));
        metrics.reconciled(done.result().label(), seconds(start));
        switch (done.requeue()) {
          case BACKOFF -> queue.retry(id);
          case POLL -> {
            queue.forget(id);
            queue.addAfter(id, config.pollInterval());
          }
          case NEXT_SYNC -> queue.forget(id);
        }
      } catch (InterruptedException e) {
        return;
      } catch (FencedException e) {
        metrics.reconciled(ReconcileResult.FENCED.label(), seconds(start));
        log.warn("node {}: write refused, this controller may not act any more", id);
      } catch (NotFoundException e) {
        metrics.reconciled(ReconcileResult.GONE.label(), seconds(start));
        queue.forget(id); // deleted meanwhile: the cache's delete forgets the rest
      } catch (ConflictException e) {
        metrics.reconciled(ReconcileResult.CONFLICT.label(), seconds(start));
        queue.addAfter(id, Duration.ofMillis(50));
      } catch (RuntimeException e) {
        metrics.reconciled(ReconcileResult.ERROR.label(), seconds(start));
        Duration delay = queue.retry(id);
        log.warn(
            "node {}: reconcile failed, retrying in {} ms: {}", id, delay.toMillis(), e.toString());
      } finally {
        MDC.remove("node");
        queue.done(id);
        busy.decrementAndGet();
      }
    }
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  /**
   * Stops, bounded by {@link NodeControllerConfig#shutdownTimeout()}:
   *
   * <ol>
   *   <li>takes no new work: the queue, the periodic sync and the cache listener stop, and no
   *       reconciliation begins a power action any more;
   *   <li>waits for reconciliations in progress to finish, up to the shutdown timeout, so a power
   *       action whose status was written ahead reaches its BMC;
   *   <li>interrupts those still running (a hung BMC call) and returns at most a second later; an
   *       interrupted power action leaves its written-ahead status as it is (the next owner checks
   *       the BMC).
   * </ol>
   */
  @Override
  public void close() {
    close(config.shutdownTimeout());
  }

  /**
   * {@link #close()} with another bound; {@link Duration#ZERO} interrupts at once (tests: a crash).
   */
  synchronized void close(Duration grace) {
    if (closed) {
      return;
    }
    closed = true;
    cache.removeListener(listener);
    reconciler.stop();
    queue.shutDown();
    timer.shutdownNow();
    if (workers == null) {
      return;
    }
    int inProgress = busy.get();
    if (inProgress > 0 && grace.isPositive()) {
      log.info(
          "node controller closing: waiting up to {} ms for {} reconciliations in progress",
          grace.toMillis(),
          inProgress);
    }
    long left =
        workers.stop(
            grace,
            running ->
                log.warn(
                    "node controller closing: {} reconciliations still running after {} ms:"
                        + " interrupting them",
                    running,
                    grace.toMillis()));
    if (left > 0) {
      log.warn("node controller closed with {} workers stuck in a call", left);
    }
  }

  /** Builds a {@link NodeController}. */
  public static final class Builder {
    NodeControllerConfig config = NodeControllerConfig.DEFAULTS;
    InventoryCache cache;
    EtcdInventory store;
    PowerDriverRegistry drivers;
    Cluster cluster = DisconnectedCluster.INSTANCE;
    LeaderElection election;
    ReplicaRegistry replicas;
    PrometheusRegistry registry;
    Clock clock = Clock.systemUTC();

    private Builder() {}

    /** The settings (default {@link NodeControllerConfig#DEFAULTS}). */
    public Builder config(NodeControllerConfig config) {
      this.config = Objects.requireNonNull(config, "config");
      return this;
    }

    /** The process's inventory cache, started by the caller (required). */
    public Builder cache(InventoryCache cache) {
      this.cache = cache;
      return this;
    }

    /** The store the statuses and readings are written through (required). */
    public Builder store(EtcdInventory store) {
      this.store = store;
      return this;
    }

    /** The power drivers by interface (required). */
    public Builder drivers(PowerDriverRegistry drivers) {
      this.drivers = drivers;
      return this;
    }

    /** Kubernetes (default: none, {@link DisconnectedCluster}). */
    public Builder cluster(Cluster cluster) {
      this.cluster = Objects.requireNonNull(cluster, "cluster");
      return this;
    }

    /**
     * Leader mode: the election of component {@link #COMPONENT} (started or not: the controller
     * adds a listener). Give this or {@link #replicas}.
     */
    public Builder election(LeaderElection election) {
      this.election = election;
      return this;
    }

    /**
     * Sharded mode: this replica's registry (started by the caller); every replica's controller
     * acts on the nodes the ring gives it, without an election. Give this or {@link #election}.
     */
    public Builder replicas(ReplicaRegistry replicas) {
      this.replicas = replicas;
      return this;
    }

    /** Where the metrics are registered (required). */
    public Builder registry(PrometheusRegistry registry) {
      this.registry = registry;
      return this;
    }

    /** The time of decisions: timeouts, events (default: the system's, UTC). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** The controller; call {@link NodeController#start()}. */
    public NodeController build() {
      return new NodeController(this);
    }
  }
}
