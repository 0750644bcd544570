package io.bamel.kube;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Rate limit for Kubernetes Events: at most one event per (node, reason) per {@code window}. An
 * event within the window of the last one posted for the same key is dropped and counted; the next
 * one posted for that key carries the count of those dropped. Pure state on a clock; thread-safe
 * (synchronized). Keys idle for more than a window are forgotten (ten windows when drops were
 * counted for them), so the memory is bounded by the events of ten windows.
 */
public final class EventThrottle {

  private final Clock clock;
  private final Duration window;
  private final Map<String, Entry> last = new HashMap<>();
  private Instant pruned = Instant.MIN;

  private static final class Entry {
    Instant postedAt;
    int dropped;
  }

  /** At most one event per key per {@code window}. */
  public EventThrottle(Clock clock, Duration window) {
    this.clock = clock;
    this.window = window;
  }

  /**
   * Whether an event for {@code node} and {@code reason} may be posted now: empty when it is to be
   * dropped, else how many were dropped for that key since the last one posted.
   */
  public synchronized OptionalInt admit(String node, String reason) {
    Instant now = clock.instant();
    prune(now);
    String key = node + "\u0000" + reason;
    Entry e = last.get(key);
    if (e != null && now.isBefore(e.postedAt.plus(window))) {
      e.dropped++;
      return OptionalInt.empty();
    }
    int dropped = e == null ? 0 : e.dropped;
    Entry fresh = new Entry();
    fresh.postedAt = now;
    last.put(key, fresh);
    return OptionalInt.of(dropped);
  }

  /** How many keys are remembered (tests). */
  synchronized int size() {
    return last.size();
  }

  private void prune(Instant now) {
    if (now.isBefore(pruned.plus(window))) {
      return;
    }
    pruned = now;
    for (Iterator<Entry> it = last.values().iterator(); it.hasNext(); ) {
      Entry e = it.next();
      Instant expiry = e.postedAt.plus(e.dropped == 0 ? window : window.multipliedBy(10));
      if (!now.isBefore(expiry)) {
        it.remove();
      }
    }
  }
}
