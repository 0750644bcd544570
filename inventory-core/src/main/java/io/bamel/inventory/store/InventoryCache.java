package io.bamel.inventory.store;

import dev.failsafe.RetryPolicy;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.Pool;
import io.bamel.inventory.runtime.Retries;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one read path of a process: a copy of the inventory kept current by a single prefix watch on
 * {@code /baremetal/}. It lists in pages at one revision, then watches from that revision + 1. When
 * the watch breaks it resumes from the last revision it saw; when that revision has been compacted
 * it lists again and tells listeners what changed in between. Listeners see every change once, in
 * order, with the previous and the new value, on the cache's own bounded executor, never on jetcd's
 * threads.
 *
 * <p>Readers get immutable values and never wait on etcd. {@link #synced()} says whether the first
 * listing is done; {@link #revision()} is the newest revision applied.
 */
public final class InventoryCache implements AutoCloseable {

  /** Tuning of the cache. */
  public record Options(int pageSize, int listenerQueue, Duration timeout, Duration maxBackoff) {

    /** Pages of 2,000 keys, 10,000 queued changes, 30 s per etcd call, backoff up to 5 s. */
    public static final Options DEFAULTS =
        new Options(2_000, 10_000, Duration.ofSeconds(30), Duration.ofSeconds(5));
  }

  private static final Logger LOG = LoggerFactory.getLogger(InventoryCache.class);
  private static final Duration FIRST_RECONNECT = Duration.ofMillis(200);

  private final KV kv;
  private final Watch watch;
  private final Options options;
  private final RetryPolicy<Object> reconnect;
  private final CacheState state = new CacheState();
  private final List<InventoryListener> listeners = new CopyOnWriteArrayList<>();
  private final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
  private final ThreadPoolExecutor dispatcher;
  private final Thread thread;
  private final Object progress = new Object();

  private volatile boolean synced;
  private volatile long revision;
  // A seqlock over the published state: odd while the cache thread applies a change, even once
  // the change and its revision are published.
  private volatile long stateVersion;
  private volatile boolean closed;
  private volatile long relists;
  private volatile long unreadableValues;
  private Watch.Watcher watcher;
  private long generation;

  /** Messages from jetcd's threads to the cache thread, tagged with the watch generation. */
  private record Events(long generation, WatchResponse response) {}

  private record Failure(long generation, Throwable error) {}

  /** A cache over {@code client} with default options; call {@link #start()}. */
  public InventoryCache(Client client) {
    this(client, Options.DEFAULTS);
  }

  /** A cache over {@code client}; call {@link #start()}. */
  public InventoryCache(Client client, Options options) {
    this.kv = client.getKVClient();
    this.watch = client.getWatchClient();
    this.options = options;
    Duration first =
        options.maxBackoff().compareTo(FIRST_RECONNECT) < 0
            ? options.maxBackoff()
            : FIRST_RECONNECT;
    this.reconnect = Retries.<Object>reconnect(first, options.maxBackoff()).build();
    this.dispatcher =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(options.listenerQueue()),
            r -> {
              Thread t = new Thread(r, "bamel-cache-listeners");
              t.setDaemon(true);
              return t;
            },
            (task, executor) -> {
              try {
                if (!executor.isShutdown()) {
                  executor.getQueue().put(task);
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RejectedExecutionException("interrupted", e);
              }
            });
    this.thread = new Thread(this::run, "bamel-cache");
    this.thread.setDaemon(true);
  }

  /** Starts listing and watching in the background. */
  public InventoryCache start() {
    thread.start();
    return this;
  }

  /**
   * Adds a listener for every change published from now on: changes the cache applied before this
   * call are not delivered to it, even when they are still queued for other listeners.
   */
  public void addListener(InventoryListener listener) {
    listeners.add(listener);
  }

  /** Removes a listener; changes already queued for it may still reach it. */
  public void removeListener(InventoryListener listener) {
    listeners.remove(listener);
  }

  /** Whether the first listing is done (and the cache has content to serve). */
  public boolean synced() {
    return synced;
  }

  /** The newest etcd revision the cache has applied (0 before the first listing). */
  public long revision() {
    return revision;
  }

  /**
   * A counter that is odd while the cache applies a change (nodes, pools and members are updated
   * one after another) and even once the change and its {@link #revision()} are published. A reader
   * that sees the same even value before and after reading several nodes and pools read them all as
   * of one revision, not half-way through a change (a seqlock).
   */
  public long stateVersion() {
    return stateVersion;
  }

  /** How many times the cache listed from scratch (1 after start; more after compactions). */
  public long relists() {
    return relists;
  }

  /**
   * How many stored values the cache could not read (broken JSON written by hand, or a value a
   * newer bamel wrote that this version does not know); each such key is treated as absent until it
   * is rewritten, and logged once per revision it was seen at.
   */
  public long unreadableValues() {
    return unreadableValues;
  }

  /** Waits until the first listing is done; false on timeout. */
  public boolean awaitSynced(Duration timeout) throws InterruptedException {
    return awaitRevision(1, timeout);
  }

  /**
   * Waits until the cache has applied revision {@code target} (for read-your-writes after a write
   * at that revision); false on timeout.
   */
  public boolean awaitRevision(long target, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (progress) {
      while (!synced || revision < target) {
        long left = deadline - System.nanoTime();
        if (left <= 0 || closed) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(progress, left);
      }
    }
    return true;
  }

  /** The node with this id. */
  public Optional<Node> node(String id) {
    return Optional.ofNullable(state.nodes().get(id));
  }

  /** Every node (a live, unmodifiable view; each value is immutable). */
  public Collection<Node> nodes() {
    return Collections.unmodifiableCollection(state.nodes().values());
  }

  /**
   * The ids of every node in id order: an immutable snapshot (a persistent set shared with the
   * cache, so taking it costs nothing), for pages that stop after {@code limit} nodes instead of
   * sorting the fleet. A node it names may be gone from {@link #node} by the time it is read.
   */
  public NavigableSet<String> sortedNodeIds() {
    return state.sortedIds();
  }

  /**
   * The nodes' identifying spec values (serial, MAC address, management address, inventory id),
   * each to the node holding it: a live view, kept up to date as the cache applies each change, so
   * a lookup costs O(1) at any fleet size.
   */
  public SpecIndex specIndex() {
    return state.specIndex();
  }

  /** How many nodes there are. */
  public int nodeCount() {
    return state.nodes().size();
  }

  /** The pool with this name (it exists while it has a config, a status or members). */
  public Optional<Pool> pool(String name) {
    return Optional.ofNullable(state.pools().get(name));
  }

  /** Every pool (a live, unmodifiable view; each value is immutable). */
  public Collection<Pool> pools() {
    return Collections.unmodifiableCollection(state.pools().values());
  }

  /**
   * The changes after revision {@code since} through revision {@code until}, read again from etcd's
   * history, in order, each as this cache published (or would have published) it: the same previous
   * and current values, grouped per node and pool within a revision. For a client that resumes a
   * watch from before what a process holds in memory (after a restart). It lists the inventory at
   * {@code since}, then watches from {@code since + 1}; it stops once it has passed {@code until}
   * or holds more than {@code max} changes (the caller should then list afresh). It does not touch
   * the cache's own content.
   *
   * @throws CompactedException when etcd has compacted revision {@code since}
   * @throws StoreUnavailableException when etcd fails or does not answer within the cache's timeout
   */
  public List<InventoryChange> history(long since, long until, int max) {
    List<KeyChange> listing = new ArrayList<>();
    listPrefix(Keys.NODES, since, listing, KeyChange::of);
    listPrefix(Keys.POOLS, since, listing, KeyChange::of);
    CacheState past = new CacheState();
    past.replace(listing, since);
    return new HistoryReplay(watch, options.timeout()).replay(past, since, until, max);
  }

  /** Stops watching and dispatching. Listeners get no more changes. */
  @Override
  public void close() {
    closed = true;
    thread.interrupt();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    dispatcher.shutdown();
    synchronized (progress) {
      progress.notifyAll();
    }
  }

  // ---------------------------------------------------------------- the cache thread

  private void run() {
    int failures = 0;
    boolean needList = true;
    while (!closed) {
      try {
        if (needList) {
          relist();
          needList = false;
        }
        startWatch();
        failures = 0;
        needList = consume();
      } catch (CompactedException e) {
        LOG.info("inventory cache: revision {} was compacted; listing again", revision);
        needList = true;
      } catch (InterruptedException e) {
        break;
      } catch (RuntimeException e) {
        if (closed) {
          break;
        }
        failures++;
        LOG.warn("inventory cache: {}; retrying (attempt {})", e.getMessage(), failures);
        if (!sleep(backoff(failures))) {
          break;
        }
      } finally {
        stopWatch();
      }
    }
  }

  /** Applies watch messages until the watch fails; returns whether a relist is needed. */
  private boolean consume() throws InterruptedException {
    while (!closed) {
      Object message = inbox.take();
      if (message instanceof Events e && e.generation() == generation) {
        List<WatchEvent> events = e.response().getEvents();
        if (events.isEmpty()) {
          // A progress notification: every change up to its revision has been delivered.
          publish(List.of(), e.response().getHeader().getRevision());
        } else {
          applyEvents(events);
        }
      } else if (message instanceof Failure f && f.generation() == generation) {
        if (isCompaction(f.error())) {
          LOG.info("inventory cache: watch from {} compacted; listing again", revision + 1);
          return true;
        }
        LOG.warn("inventory cache: watch broke ({}); resuming from {}", f.error(), revision + 1);
        sleep(backoff(1));
        return false;
      }
    }
    return false;
  }

  private void relist() {
    List<KeyChange> all = new ArrayList<>();
    long at = listPrefix(Keys.NODES, 0, all);
    listPrefix(Keys.POOLS, at, all);
    stateVersion++;
    try {
      List<InventoryChange> changes = state.replace(all, at);
      relists++;
      publish(changes, at);
    } finally {
      stateVersion++;
    }
    LOG.info(
        "inventory cache: listed {} nodes and {} pools at revision {}",
        state.nodes().size(),
        state.pools().size(),
        at);
  }

  /**
   * Lists every key under {@code prefix} in pages at revision {@code at} (0: now), decoding each
   * page while the next one is being fetched; returns the revision read at.
   */
  private long listPrefix(String prefix, long at, List<KeyChange> into) {
    return listPrefix(prefix, at, into, this::read);
  }

  private long listPrefix(
      String prefix, long at, List<KeyChange> into, Function<KeyValue, KeyChange> decoder) {
    String end = Keys.prefixEnd(prefix);
    CompletableFuture<GetResponse> next = page(prefix, end, at);
    while (true) {
      GetResponse page = Etcd.await(next, options.timeout(), "listing");
      if (at == 0) {
        at = page.getHeader().getRevision();
      }
      List<KeyValue> kvs = page.getKvs();
      boolean more = page.isMore() && !kvs.isEmpty();
      if (more) {
        next = page(Bytes.text(kvs.get(kvs.size() - 1).getKey()) + "\u0000", end, at);
      }
      for (KeyValue kv : kvs) {
        into.add(decoder.apply(kv));
      }
      if (!more) {
        return at;
      }
    }
  }

  private CompletableFuture<GetResponse> page(String from, String end, long at) {
    GetOption.Builder option =
        GetOption.builder().withRange(Bytes.of(end)).withLimit(options.pageSize());
    if (at > 0) {
      option.withRevision(at);
    }
    return kv.get(Bytes.of(from), option.build());
  }

  private void startWatch() {
    long gen = ++generation;
    inbox.clear();
    WatchOption option =
        WatchOption.builder()
            .isPrefix(true)
            .withRevision(revision + 1)
            .withProgressNotify(true)
            .build();
    watcher =
        watch.watch(
            Bytes.of(Keys.ROOT),
            option,
            Watch.listener(
                response -> inbox.add(new Events(gen, response)),
                error -> inbox.add(new Failure(gen, error))));
  }

  private void stopWatch() {
    if (watcher != null) {
      try {
        watcher.close();
      } catch (RuntimeException e) {
        LOG.debug("closing watcher", e);
      }
      watcher = null;
    }
  }

  private void applyEvents(List<WatchEvent> events) {
    for (List<KeyChange> group : KeyChange.byRevision(events, this::read)) {
      long rev = group.get(0).modRevision();
      if (rev > revision) {
        stateVersion++;
        try {
          publish(state.apply(group, rev), rev);
        } finally {
          stateVersion++;
        }
      }
    }
  }

  /** Decodes a key; an unreadable value is counted, logged (never the value itself) and absent. */
  private KeyChange read(KeyValue kv) {
    KeyChange change = KeyChange.of(kv);
    if (change.unreadable() != null) {
      unreadableValues++;
      LOG.warn(
          "inventory cache: cannot read {} at revision {} ({}); treating it as absent until it is"
              + " rewritten",
          Bytes.text(kv.getKey()),
          kv.getModRevision(),
          change.unreadable());
    }
    return change;
  }

  private void publish(List<InventoryChange> changes, long rev) {
    if (!changes.isEmpty()) {
      // The listeners of now: one added after this point sees only later changes, even though
      // these are still queued for the dispatcher when it is added.
      List<InventoryListener> targets = List.copyOf(listeners);
      for (InventoryChange change : changes) {
        dispatcher.execute(() -> notifyListeners(targets, change));
      }
    }
    synchronized (progress) {
      revision = Math.max(revision, rev);
      synced = true;
      progress.notifyAll();
    }
  }

  private static void notifyListeners(List<InventoryListener> targets, InventoryChange change) {
    for (InventoryListener listener : targets) {
      try {
        listener.onChange(change);
      } catch (RuntimeException e) {
        LOG.warn("inventory listener {} failed on {}", listener, change, e);
      }
    }
  }

  private static boolean isCompaction(Throwable error) {
    return error instanceof io.etcd.jetcd.common.exception.CompactedException
        || String.valueOf(error.getMessage()).contains("compacted");
  }

  private Duration backoff(int failures) {
    return Retries.delayAfter(reconnect, failures);
  }

  private boolean sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
