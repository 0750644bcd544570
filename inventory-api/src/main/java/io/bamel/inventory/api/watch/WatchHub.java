package io.bamel.inventory.api.watch;

import io.bamel.inventory.store.InventoryChange;
import io.bamel.inventory.store.InventoryListener;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Fans the cache's changes out to watch clients, and keeps the last {@code history} changes so that
 * a client can resume from a revision. Resuming from a revision older than what the hub holds
 * (evicted, or before the hub started) is {@link Gone} here; the caller may then read the changes
 * up to the hub's floor from etcd ({@link WatchHistory}) and take the rest from {@link
 * #subscribeAfterFloor(WatchFilter)}. A client that falls {@code history} changes behind is
 * disconnected (it resumes from its last event id).
 */
public final class WatchHub implements InventoryListener, AutoCloseable {

  /** The requested revision is no longer held. */
  static final class Gone extends Exception {
    Gone(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * One client's queue of the events its filter accepts; {@link #STOP} tells the client to stop.
   */
  static final class Subscription {
    final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    final WatchFilter filter;
    volatile boolean overflowed;

    Subscription(WatchFilter filter) {
      this.filter = filter;
    }

    boolean wants(WatchEvent event) {
      return filter.test(event.change());
    }
  }

  static final Object STOP = new Object();

  private final int history;
  private final ArrayDeque<WatchEvent> events = new ArrayDeque<>();
  private final Set<Subscription> subscriptions = new CopyOnWriteArraySet<>();
  private long start = Long.MAX_VALUE;
  private long evictedRevision = -1;
  private int evictedIndex;
  private long lastRevision;
  private int lastIndex;
  private boolean closed;

  /** A hub keeping the last {@code history} changes; call {@link #start} once subscribed. */
  public WatchHub(int history) {
    this.history = history;
  }

  /**
   * Starts recording the changes after revision {@code revision} (read after the hub was added as a
   * listener, so that no later change is missed; earlier ones are ignored).
   */
  public synchronized void start(long revision) {
    this.start = revision;
  }

  @Override
  public synchronized void onChange(InventoryChange change) {
    long revision = WatchEvent.revisionOf(change);
    if (revision <= start || closed) {
      return;
    }
    int index = revision == lastRevision ? lastIndex + 1 : 0;
    lastRevision = revision;
    lastIndex = index;
    WatchEvent event = new WatchEvent(revision, index, change);
    events.addLast(event);
    while (events.size() > history) {
      WatchEvent evicted = events.removeFirst();
      evictedRevision = evicted.revision();
      evictedIndex = evicted.index();
    }
    for (Subscription s : subscriptions) {
      if (!s.wants(event)) {
        continue;
      }
      if (s.queue.size() >= history) {
        s.overflowed = true;
        s.queue.offer(STOP);
        subscriptions.remove(s);
      } else {
        s.queue.offer(event);
      }
    }
  }

  /**
   * Subscribes from position {@code (revision, index)}: the queue receives every held change after
   * it, then every new one, that {@code filter} accepts.
   *
   * @throws Gone when changes after that position are no longer held
   */
  synchronized Subscription subscribe(long revision, int index, WatchFilter filter) throws Gone {
    boolean evicted =
        evictedRevision >= 0
            && (revision < evictedRevision || revision == evictedRevision && index < evictedIndex);
    if (revision < start || evicted) {
      throw new Gone(
          "revision "
              + revision
              + " is older than the watch history this server holds; list again and watch"
              + " from the listing's revision");
    }
    Subscription s = new Subscription(filter);
    List<WatchEvent> backlog = new ArrayList<>();
    for (WatchEvent e : events) {
      if (e.after(revision, index) && s.wants(e)) {
        backlog.add(e);
      }
    }
    s.queue.addAll(backlog);
    if (closed) {
      s.queue.offer(STOP);
    } else {
      subscriptions.add(s);
    }
    return s;
  }

  /** A subscription to every change after {@code floor}, the revision the hub is complete after. */
  record Catchup(Subscription subscription, long floor) {}

  /**
   * Subscribes to every change {@code filter} accepts that the hub holds or will receive after its
   * floor (the newest revision it may lack changes of: the one it started at, or the newest it
   * evicted), for a client that resumes from before the floor and reads the changes up to the floor
   * elsewhere.
   *
   * @return null while the hub has not started
   */
  synchronized Catchup subscribeAfterFloor(WatchFilter filter) {
    if (start == Long.MAX_VALUE) {
      return null;
    }
    long floor = Math.max(start, evictedRevision);
    Subscription s = new Subscription(filter);
    for (WatchEvent e : events) {
      if (e.revision() > floor && s.wants(e)) {
        s.queue.add(e);
      }
    }
    if (closed) {
      s.queue.offer(STOP);
    } else {
      subscriptions.add(s);
    }
    return new Catchup(s, floor);
  }

  void unsubscribe(Subscription s) {
    subscriptions.remove(s);
  }

  /** How many clients are watching. */
  int watchers() {
    return subscriptions.size();
  }

  @Override
  public synchronized void close() {
    closed = true;
    for (Subscription s : subscriptions) {
      s.queue.offer(STOP);
    }
    subscriptions.clear();
  }
}
