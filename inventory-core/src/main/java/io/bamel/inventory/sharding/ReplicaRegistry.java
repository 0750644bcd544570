package io.bamel.inventory.sharding;

import io.bamel.inventory.leader.EtcdRequests;
import io.bamel.inventory.leader.KeptLease;
import io.bamel.inventory.runtime.CoreThreads;
import io.bamel.inventory.store.Keys;
import io.bamel.inventory.store.WriteFence;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.options.WatchOption;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live {@code bamel server} replicas and the {@link HashRing} over them, so that the node
 * controllers of several replicas share the fleet: each replica acts only on the nodes it {@link
 * #owns}.
 *
 * <p>Each replica keeps a key {@code /baremetal/replicas/{instance}} under a lease of {@link
 * Options#ttl()} (15 s by default) and watches the prefix; the ring is the set of those keys. A
 * replica killed without a goodbye loses its key when its lease expires, and the others take its
 * nodes over within the TTL; {@link #close()} revokes the lease so they do at once. A replica whose
 * own lease etcd has not confirmed in time (cut off from etcd: {@link
 * io.bamel.inventory.leader.KeptLease#held()}) owns nothing until it has a live key again: it stops
 * before etcd can let the others take over, so no node has two acting owners.
 *
 * <p>Thread-safe; listeners hear every new ring on the registry's thread.
 */
public final class ReplicaRegistry implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ReplicaRegistry.class);

  /**
   * Tuning.
   *
   * @param ttl the lease TTL (whole seconds, at least 1 s): how long a dead replica keeps its nodes
   * @param interval how often the key is checked and the members listed (besides the watch)
   * @param timeout the deadline of each etcd request
   */
  public record Options(Duration ttl, Duration interval, Duration timeout) {
    /** TTL 15 s, a check every 5 s, requests of 5 s. */
    public static final Options DEFAULTS =
        new Options(Duration.ofSeconds(15), Duration.ofSeconds(5), Duration.ofSeconds(5));
  }

  private final Client client;
  private final String instance;
  private final String key;
  private final Options options;
  private final ScheduledExecutorService thread;
  private final List<Consumer<HashRing>> listeners = new CopyOnWriteArrayList<>();

  // Written on the registry's thread only.
  private final KeptLease lease;
  private Watch.Watcher watcher;
  private volatile boolean closed;
  private volatile HashRing ring = HashRing.of(List.of());
  private volatile boolean registered;
  private volatile long keyCreateRevision;

  /** A registry for this process, named {@code instance} in the ring. Call {@link #start()}. */
  public ReplicaRegistry(Client client, String instance, Options options) {
    this.client = client;
    this.instance = instance;
    this.key = Keys.replica(instance);
    this.options = options;
    this.thread = Executors.newSingleThreadScheduledExecutor(CoreThreads.factory("replicas"));
    this.lease = new KeptLease(client, options.ttl(), options.timeout(), thread, this::wake);
  }

  /** Registers this replica and starts following the others; returns this. */
  public ReplicaRegistry start() {
    watcher =
        client
            .getWatchClient()
            .watch(
                bytes(Keys.REPLICAS),
                WatchOption.builder().isPrefix(true).build(),
                Watch.listener(
                    response -> wake(),
                    error -> LOG.debug("replica watch failed: {}", error.toString())));
    thread.scheduleWithFixedDelay(
        CoreThreads.guarded("replica registry", LOG, this::tick),
        0,
        options.interval().toMillis(),
        TimeUnit.MILLISECONDS);
    return this;
  }

  /** This replica's name in the ring. */
  public String instance() {
    return instance;
  }

  /** The ring as last seen (empty while this replica is not registered). */
  public HashRing ring() {
    return ring;
  }

  /** Whether this replica is live and owns {@code nodeId} on the current ring. */
  public boolean owns(String nodeId) {
    return registered && !renewalOverdue() && ring.owns(instance, nodeId);
  }

  /**
   * The fence of this replica's writes ({@code /baremetal/replicas/{instance}} at the create
   * revision this replica last saw it with): they commit only while that key, held by this
   * replica's lease, still exists, so a replica whose lease expired (and whose nodes the others
   * have taken over) can no longer write. Empty while this replica is not live on the ring.
   */
  public Optional<WriteFence> fence() {
    long created = keyCreateRevision;
    return registered && !renewalOverdue() && created > 0
        ? Optional.of(new WriteFence(key, created))
        : Optional.empty();
  }

  /**
   * Adds a listener of ring changes; it hears the current ring at once (on the registry thread).
   */
  public void addListener(Consumer<HashRing> listener) {
    listeners.add(listener);
    thread.execute(() -> listener.accept(ring));
  }

  /** Waits until this replica is on the ring (start-up, tests); returns whether it is. */
  public boolean awaitRegistered(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!(registered && ring.members().contains(instance)) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    return registered && ring.members().contains(instance);
  }

  private void wake() {
    if (!closed) {
      try {
        thread.execute(CoreThreads.guarded("replica registry", LOG, this::tick));
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
      ensureRegistered();
      Set<String> live = new TreeSet<>();
      for (KeyValue kv :
          await(
                  client
                      .getKVClient()
                      .get(
                          bytes(Keys.REPLICAS),
                          GetOption.builder().isPrefix(true).withKeysOnly(true).build()))
              .getKvs()) {
        String member =
            kv.getKey().toString(StandardCharsets.UTF_8).substring(Keys.REPLICAS.length());
        live.add(member);
        if (member.equals(instance)) {
          keyCreateRevision = kv.getCreateRevision();
        }
      }
      if (!live.contains(instance)) {
        // Our key is gone (the lease expired in etcd while we were cut off): a new lease next.
        keyCreateRevision = 0;
        lease.markLost();
        registered = false;
        wake();
      }
      publish(HashRing.of(live));
    } catch (IllegalStateException e) {
      LOG.debug("replica registry: {}", e.getMessage());
      if (renewalOverdue()) {
        registered = false;
        publish(HashRing.of(List.of()));
      }
    }
  }

  private void ensureRegistered() {
    if (lease.needsGrant()) {
      registered = false;
      lease.grant();
    }
    if (!registered) {
      await(
          client
              .getKVClient()
              .put(
                  bytes(key),
                  bytes(instance),
                  PutOption.builder().withLeaseId(lease.id()).build()));
      registered = true;
      LOG.info("replica {} registered in the hash ring", instance);
    }
  }

  private void publish(HashRing next) {
    if (next.members().equals(ring.members())) {
      return;
    }
    ring = next;
    LOG.info("hash ring: {} replicas {}", next.members().size(), next.members());
    for (Consumer<HashRing> l : listeners) {
      try {
        l.accept(next);
      } catch (RuntimeException e) {
        LOG.warn("hash ring listener failed", e);
      }
    }
  }

  private boolean renewalOverdue() {
    return lease.overdue();
  }

  /** Leaves the ring (revoking the lease, so the others take this replica's nodes at once). */
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
              registered = false;
              lease.close();
              keyCreateRevision = 0;
              ring = HashRing.of(List.of());
            });
    try {
      done.get(options.timeout().toMillis() * 2, TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      closed = true;
    }
    thread.shutdownNow();
  }

  private <T> T await(CompletableFuture<T> future) {
    return EtcdRequests.await(future, options.timeout());
  }

  private static ByteSequence bytes(String text) {
    return ByteSequence.from(text, StandardCharsets.UTF_8);
  }
}
