package io.bamel.inventory.leader;

import io.bamel.inventory.store.Keys;
import io.bamel.inventory.store.WriteFence;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.options.WatchOption;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election for one component on etcd.
 *
 * <p>A candidate holds a lease (TTL {@link Options#ttl()}, 15 s by default) kept alive by a {@link
 * KeptLease}, and campaigns with one transaction: "if {@code /baremetal/leader/{component}} does
 * not exist, create it with my lease". The winner leads while that key exists with the create
 * revision it made; its {@link #fence()} ({@link WriteFence}) makes every controller write
 * conditional on exactly that, so a deposed leader's writes fail with {@link
 * io.bamel.inventory.store.FencedException} even before it notices.
 *
 * <p>Standbys watch the key and campaign again as soon as it is deleted (resignation or lease
 * expiry), and in any case every {@link Options#retryInterval()}. The leader re-reads the key on
 * the same schedule and steps down when the key is gone or another's. It also steps down when etcd
 * says its lease is gone, or when no keep-alive has confirmed the lease until its confirmed expiry
 * less a safety margin ({@link LeaseTracker}): it then stops acting before etcd could let another
 * take over. A failed keep-alive alone (one etcd member died) does not end leadership: it is
 * retried through the other endpoints. A leader that stepped down for want of confirmation keeps
 * renewing its lease, and leads again with the same term when etcd confirms the lease and the key
 * is still its own (after an outage shorter than etcd's lease handling lets the lease live).
 *
 * <p>At its first campaign a candidate that finds the key held under another lease by its own
 * identity (a previous run of this process that crashed, with the same configured {@code instance})
 * revokes that lease instead of waiting for it to expire. {@link #close()} resigns: the lease is
 * revoked, which deletes the key at once.
 *
 * <p>Why not jetcd's {@code Election} (etcd's v3election service): its {@code campaign} names the
 * leader key {@code {election}/{lease id in hex}} (etcd's {@code concurrency.Election}), so the
 * documented key {@code /baremetal/leader/{component}}, which operators read with etcdctl, would
 * change; the leader key's create revision, which {@code Election} also offers as a guard, is what
 * {@link #fence()} already uses. What it does not do is the rest of this class: it keeps no lease
 * (a {@link KeptLease} would still be needed, with the confirmed-expiry rule of {@link
 * LeaseTracker}), a campaign is one server-side call that blocks until elected (a crashed run's key
 * under its old lease would hold it until that lease expires, where this class revokes it), and it
 * says nothing when leadership is lost (a leader must still watch its key). Written down in
 * docs/architecture.md, "Library choices".
 *
 * <p>Thread-safe. Listeners are called on the election's own thread.
 */
public final class LeaderElection implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(LeaderElection.class);

  /**
   * Tuning.
   *
   * @param ttl the lease TTL (whole seconds, at least 1 s): how long a dead leader blocks others
   * @param retryInterval how often a standby campaigns and a leader re-checks its key
   * @param timeout the deadline of each etcd request
   */
  public record Options(Duration ttl, Duration retryInterval, Duration timeout) {

    /** TTL 15 s, checks every 5 s, requests time out after 5 s. */
    public static final Options DEFAULTS =
        new Options(Duration.ofSeconds(15), Duration.ofSeconds(5), Duration.ofSeconds(5));

    /** A TTL with checks every third of it and requests bounded by a third of it. */
    public static Options withTtl(Duration ttl) {
      Duration third = ttl.dividedBy(3);
      return new Options(ttl, third, third);
    }
  }

  private record Term(long leaseId, WriteFence fence) {}

  private final Client client;
  private final String component;
  private final String key;
  private final String identity;
  private final Options options;
  private final ScheduledExecutorService thread;
  private final List<LeadershipListener> listeners = new CopyOnWriteArrayList<>();
  private final CountDownLatch firstTerm = new CountDownLatch(1);

  // Touched only on the election thread, except where volatile.
  private volatile Term term;
  private final KeptLease lease;
  private Watch.Watcher watcher;
  private volatile boolean closed;
  private boolean previousRunChecked;

  /**
   * A candidate for {@code component} (an id: {@code node-controller}, {@code pool-controller})
   * named {@code identity} (stored in the key for operators; no secret). Call {@link #start()}.
   */
  public LeaderElection(Client client, String component, String identity, Options options) {
    this.client = client;
    this.component = component;
    this.key = Keys.leader(component);
    this.identity = identity;
    this.options = options;
    this.thread =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "leader-" + component);
              t.setDaemon(true);
              return t;
            });
    this.lease = new KeptLease(client, options.ttl(), options.timeout(), thread, this::tick);
  }

  /** Adds a listener; if this process leads already, it hears {@code gained} at once. */
  public void addListener(LeadershipListener listener) {
    listeners.add(listener);
    thread.execute(
        () -> {
          Term t = term;
          if (t != null) {
            listener.gained(t.fence());
          }
        });
  }

  /** Starts campaigning; returns this. */
  public LeaderElection start() {
    watcher =
        client
            .getWatchClient()
            .watch(
                bytes(key),
                WatchOption.DEFAULT,
                Watch.listener(
                    response -> wake(),
                    error -> log.debug("leader watch on {} failed: {}", key, error.toString())));
    thread.scheduleWithFixedDelay(
        this::tick, 0, options.retryInterval().toMillis(), TimeUnit.MILLISECONDS);
    return this;
  }

  /** The component this election is for. */
  public String component() {
    return component;
  }

  /** This candidate's identity. */
  public String identity() {
    return identity;
  }

  /** Whether this process leads now. */
  public boolean isLeader() {
    return term != null && !closed;
  }

  /** The fence of the current term; empty when this process does not lead. */
  public Optional<WriteFence> fence() {
    Term t = term;
    return t == null || closed ? Optional.empty() : Optional.of(t.fence());
  }

  /** Waits until this process leads (for tests and start-up); returns whether it does. */
  public boolean awaitLeadership(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!isLeader() && System.nanoTime() < deadline) {
      firstTerm.await(
          Math.min(50, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)),
          TimeUnit.MILLISECONDS);
    }
    return isLeader();
  }

  private void wake() {
    if (!closed) {
      try {
        thread.execute(this::tick);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        // closing
      }
    }
  }

  private void tick() {
    if (closed) {
      return;
    }
    try {
      if (term == null) {
        campaign();
      } else {
        verify();
      }
    } catch (RuntimeException e) {
      log.debug("leader election for {}: {}", component, e.toString());
      if (term != null && !lease.held()) {
        lose(leaseLost());
      }
    }
  }

  private String leaseLost() {
    return "lease " + Long.toHexString(lease.id()) + ": " + lease.reason();
  }

  private void campaign() {
    if (!previousRunChecked) {
      revokePreviousRun();
    }
    if (lease.needsGrant()) {
      lease.grant();
    }
    if (!lease.held()) {
      return; // etcd has not confirmed the lease in time: wait for a keep-alive to succeed
    }
    long leaseId = lease.id();
    TxnResponse response =
        await(
            client
                .getKVClient()
                .txn()
                .If(new Cmp(bytes(key), Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                .Then(
                    Op.put(
                        bytes(key),
                        bytes(identity),
                        PutOption.builder().withLeaseId(leaseId).build()))
                .Else(Op.get(bytes(key), GetOption.DEFAULT))
                .commit());
    if (response.isSucceeded()) {
      gain(response.getHeader().getRevision());
      return;
    }
    List<KeyValue> kvs = response.getGetResponses().get(0).getKvs();
    if (!kvs.isEmpty() && kvs.get(0).getLease() == leaseId) {
      gain(kvs.get(0).getCreateRevision()); // our own key from before a hiccup
    }
  }

  /**
   * A key held by this identity under a lease that is not this candidate's is a previous run's:
   * this process crashed and restarted with the same {@code instance}. Revoking that lease deletes
   * the key, so this run (or a standby) leads at once instead of after the lease's TTL.
   */
  private void revokePreviousRun() {
    List<KeyValue> kvs = await(client.getKVClient().get(bytes(key))).getKvs();
    previousRunChecked = true;
    if (kvs.isEmpty()) {
      return;
    }
    KeyValue held = kvs.get(0);
    long previous = held.getLease();
    if (!held.getValue().toString(StandardCharsets.UTF_8).equals(identity)
        || previous == 0
        || previous == lease.id()) {
      return;
    }
    await(client.getLeaseClient().revoke(previous));
    log.info(
        "{} found its own lease {} of a previous run holding {} (term {}): revoked it instead of"
            + " waiting up to {} s for it to expire",
        identity,
        Long.toHexString(previous),
        component,
        held.getCreateRevision(),
        options.ttl().toSeconds());
  }

  private void verify() {
    if (!lease.held()) {
      lose(leaseLost());
      return;
    }
    Term t = term;
    List<KeyValue> kvs = await(client.getKVClient().get(bytes(key))).getKvs();
    if (kvs.isEmpty()) {
      lose("the leadership key is gone");
    } else if (kvs.get(0).getCreateRevision() != t.fence().createRevision()
        || kvs.get(0).getLease() != t.leaseId()) {
      lose("another process holds the leadership key");
    }
  }

  private void gain(long createRevision) {
    Term t = new Term(lease.id(), new WriteFence(key, createRevision));
    term = t;
    log.info("{} leads {} (term {})", identity, component, createRevision);
    firstTerm.countDown();
    for (LeadershipListener l : listeners) {
      try {
        l.gained(t.fence());
      } catch (RuntimeException e) {
        log.warn("leadership listener failed", e);
      }
    }
  }

  private void lose(String why) {
    if (term == null) {
      return;
    }
    term = null;
    // The lease is kept: while it lives, the key is still this process's, and it leads again
    // with the same term as soon as etcd confirms the lease; a gone lease is replaced at the next
    // campaign.
    log.warn("{} no longer leads {}: {}", identity, component, why);
    for (LeadershipListener l : listeners) {
      try {
        l.lost();
      } catch (RuntimeException e) {
        log.warn("leadership listener failed", e);
      }
    }
  }

  /** Resigns (revoking the lease deletes the key, so a standby takes over at once) and stops. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    var done =
        thread.submit(
            () -> {
              closed = true;
              if (watcher != null) {
                watcher.close();
              }
              if (term != null) {
                Term t = term;
                term = null;
                for (LeadershipListener l : listeners) {
                  try {
                    l.lost();
                  } catch (RuntimeException e) {
                    log.warn("leadership listener failed", e);
                  }
                }
                log.info(
                    "{} resigns {} (term {})", identity, component, t.fence().createRevision());
              }
              lease.close();
            });
    try {
      done.get(options.timeout().toMillis() * 2, TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      closed = true;
      log.debug("resigning {} did not finish: {}", component, e.toString());
    }
    thread.shutdownNow();
  }

  private <T> T await(java.util.concurrent.CompletableFuture<T> future) {
    return EtcdRequests.await(future, options.timeout());
  }

  private static ByteSequence bytes(String text) {
    return ByteSequence.from(text, StandardCharsets.UTF_8);
  }
}
