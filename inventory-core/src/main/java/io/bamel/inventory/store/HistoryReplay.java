package io.bamel.inventory.store;

import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Replays etcd's history of the {@code /baremetal/} prefix over a {@link CacheState} that holds the
 * inventory as it was at a past revision, yielding the changes the cache published then. One
 * short-lived watch from that revision + 1; progress requests end a quiet range.
 */
final class HistoryReplay {

  private static final long QUIET_MILLIS = 200;

  private final Watch watch;
  private final Duration timeout;

  HistoryReplay(Watch watch, Duration timeout) {
    this.watch = watch;
    this.timeout = timeout;
  }

  /** The changes in ({@code since}, {@code until}], stopping early past {@code max} changes. */
  List<InventoryChange> replay(CacheState past, long since, long until, int max) {
    List<InventoryChange> out = new ArrayList<>();
    if (until <= since) {
      return out;
    }
    BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
    WatchOption option = WatchOption.builder().isPrefix(true).withRevision(since + 1).build();
    long deadline = System.nanoTime() + timeout.toNanos();
    Watch.Watcher watcher =
        watch.watch(Bytes.of(Keys.ROOT), option, Watch.listener(inbox::add, inbox::add));
    try {
      long seen = since;
      while (seen < until && out.size() <= max) {
        Object message = inbox.poll(QUIET_MILLIS, TimeUnit.MILLISECONDS);
        if (message == null) {
          if (System.nanoTime() > deadline) {
            throw new StoreUnavailableException(
                "etcd's history up to revision " + until + " was not read within " + timeout, null);
          }
          watch.requestProgress(); // answered with the revision every change has been sent up to
        } else if (message instanceof Throwable error) {
          throw Etcd.translate(error, "reading the history after revision " + since);
        } else {
          WatchResponse response = (WatchResponse) message;
          seen =
              response.getEvents().isEmpty()
                  ? Math.max(seen, response.getHeader().getRevision())
                  : apply(past, response.getEvents(), until, out);
        }
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreUnavailableException("interrupted while reading history", e);
    } finally {
      watcher.close();
    }
  }

  /** Applies events in revision groups up to {@code until}; returns the newest revision seen. */
  private static long apply(
      CacheState past, List<WatchEvent> events, long until, List<InventoryChange> out) {
    long seen = 0;
    for (List<KeyChange> group : KeyChange.byRevision(events, KeyChange::of)) {
      long rev = group.get(0).modRevision();
      if (rev > until) {
        return rev;
      }
      out.addAll(past.apply(group, rev));
      seen = rev;
    }
    return seen;
  }
}
