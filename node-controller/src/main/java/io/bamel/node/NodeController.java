package io.bamel.node;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.DisconnectedCluster;
import io.bamel.inventory.leader.LeaderElection;
import io.bamel.inventory.leader.LeadershipListener;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.runtime.CoreThreads;
import io.bamel.inventory.store.ConflictException;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.FencedException;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.store.InventoryChange;
import io.bamel.inventory.store.InventoryListener;
import io.bamel.inventory.store.NodeChange;
import io.bamel.inventory.store.NotFoundException;
import io.bamel.inventory.store.PoolChange;
import io.bamel.inventory.store.WriteFence;
import io.bamel.power.PowerDriverRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 *   <li>Only the leader of {@code node-controller} acts ({@link LeaderElection}); every status
 *       write is fenced by its leadership key, and gaining leadership queues every node, so a
 *       standby continues from what etcd says.
 * </ul>
 *
 * <p>It does not own the cache, store, drivers, cluster or election it is given. {@link #close()}
 * stops taking work and lets reconciliations in progress finish, within {@link
 * NodeControllerConfig#shutdownTimeout()}, before it interrupts them; close the election after it
 * (the last status writes are fenced by its leadership).
 */
public final class NodeController implements AutoCloseable {

  /** The leader-election component name. */
  public static final String COMPONENT = "node-controller";

  private static final Logger log = LoggerFactory.getLogger(NodeController.class);

  /** How long {@link #close()} waits for interrupted workers to end. */
  private static final Duration INTERRUPT_GRACE = Duration.ofSeconds(1);

  private final NodeControllerConfig config;
  private final InventoryCache cache;
  private final LeaderElection election;
  private final ScheduledExecutorService timer;
  private final WorkQueue queue;
  private final NodeMetrics metrics;
  private final NodeReconciler reconciler;
  private final Set<String> syncDue = ConcurrentHashMap.newKeySet();
  private final List<Thread> workers = new ArrayList<>();
  private final AtomicInteger busy = new AtomicInteger();
  private final InventoryListener listener = this::onChange;
  private volatile boolean closed;

  private NodeController(Builder b) {
    Objects.requireNonNull(b.cache, "cache");
    Objects.requireNonNull(b.store, "store");
    Objects.requireNonNull(b.drivers, "drivers");
    Objects.requireNonNull(b.election, "election");
    Objects.requireNonNull(b.registry, "registry");
    this.config = b.config;
    this.cache = b.cache;
    this.election = b.election;
    this.timer = Executors.newSingleThreadScheduledExecutor(CoreThreads.factory(COMPONENT));
    this.queue = new WorkQueue(timer, config.backoffBase(), config.backoffMax());
    this.metrics =
        new NodeMetrics(b.registry, cache, election.component(), election::isLeader, queue::depth);
    this.reconciler = new NodeReconciler(b, metrics);
  }

  /** A builder; cache, store, drivers, election and registry are required. */
  public static Builder builder() {
    return new Builder();
  }

  /** Starts the workers, the sync, and listening to the cache and the election; returns this. */
  public synchronized NodeController start() {
    if (config.workers() < config.bmcConcurrency()) {
      log.info(
          "node controller: {} workers, so at most {} of the {} allowed BMC calls run at once",
          config.workers(),
          config.workers(),
          config.bmcConcurrency());
    }
    ThreadFactory virtual = Thread.ofVirtual().name("node-worker-", 0).factory();
    for (int i = 0; i < config.workers(); i++) {
      Thread t = virtual.newThread(this::work);
      workers.add(t);
      t.start();
    }
    cache.addListener(listener);
    election.addListener(
        new LeadershipListener() {
          @Override
          public void gained(WriteFence fence) {
            log.info("node controller leads: reconciling {} nodes", cache.nodeCount());
            enqueueAll(false);
          }

          @Override
          public void lost() {
            log.info("node controller lost leadership: standing by");
          }
        });
    scheduleSync();
    return this;
  }

  /** Whether this controller leads (and so acts). */
  public boolean isLeader() {
    return election.isLeader() && !closed;
  }

  /** Queues one node now (an operator's "reconcile now"). */
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
    } else if ((c.previous() == null || c.specChanged()) && election.isLeader()) {
      queue.add(c.id());
    }
  }

  /** A pool's config (timeouts, labels) changed: its members are looked at again. */
  private void onPoolChange(PoolChange p) {
    PoolConfig before = p.previous() == null ? null : p.previous().config();
    PoolConfig after = p.current() == null ? null : p.current().config();
    if (p.current() == null || Objects.equals(before, after) || !election.isLeader()) {
      return;
    }
    p.current().members().forEach(queue::add);
  }

  private void enqueueAll(boolean sync) {
    for (Node node : cache.nodes()) {
      if (sync) {
        syncDue.add(node.id());
      }
      queue.add(node.id());
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

  /** Queues every node for a power sync, when this controller acts. */
  private void syncPass() {
    if (election.isLeader() && !closed) {
      enqueueAll(true);
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
      try {
        if (!election.isLeader()) {
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
        log.warn("node {}: write refused, not the leader any more", id);
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
   *       interrupted power action leaves its written-ahead status as it is (the next leader checks
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
    int inProgress = busy.get();
    if (inProgress > 0 && grace.isPositive()) {
      log.info(
          "node controller closing: waiting up to {} ms for {} reconciliations in progress",
          grace.toMillis(),
          inProgress);
    }
    boolean interrupted = !joinWorkers(grace);
    List<Thread> running = workers.stream().filter(Thread::isAlive).toList();
    if (!running.isEmpty()) {
      log.warn(
          "node controller closing: {} reconciliations still running after {} ms: interrupting them",
          running.size(),
          grace.toMillis());
      running.forEach(Thread::interrupt);
      interrupted |= !joinWorkers(INTERRUPT_GRACE);
      long left = workers.stream().filter(Thread::isAlive).count();
      if (left > 0) {
        log.warn("node controller closed with {} workers stuck in a call (daemon threads)", left);
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Waits until every worker has ended or {@code bound} passed; false when interrupted. */
  private boolean joinWorkers(Duration bound) {
    long deadline = System.nanoTime() + bound.toNanos();
    for (Thread t : workers) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        break;
      }
      try {
        t.join(Duration.ofNanos(left));
      } catch (InterruptedException e) {
        return false;
      }
    }
    return true;
  }

  /** Builds a {@link NodeController}. */
  public static final class Builder {
    NodeControllerConfig config = NodeControllerConfig.DEFAULTS;
    InventoryCache cache;
    EtcdInventory store;
    PowerDriverRegistry drivers;
    Cluster cluster = DisconnectedCluster.INSTANCE;
    LeaderElection election;
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
     * The election of component {@link #COMPONENT} (required; started or not: the controller adds a
     * listener).
     */
    public Builder election(LeaderElection election) {
      this.election = election;
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
