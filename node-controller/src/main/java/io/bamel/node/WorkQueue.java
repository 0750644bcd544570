package io.bamel.node;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The controller's queue of node ids.
 *
 * <ul>
 *   <li>An id is held at most once: adding a queued id does nothing.
 *   <li>An id is handed to at most one worker at a time: an id added while a worker has it is
 *       queued again when that worker calls {@link #done}.
 *   <li>{@link #addAfter} delays an id; {@link #retry} delays it by an exponential backoff with
 *       jitter (base doubled per consecutive failure, capped), which {@link #forget} resets.
 * </ul>
 *
 * Thread-safe.
 */
final class WorkQueue {

  private final ArrayDeque<String> ready = new ArrayDeque<>();
  private final Set<String> queued = new HashSet<>();
  private final Set<String> processing = new HashSet<>();
  private final Set<String> dirty = new HashSet<>();
  private final Map<String, Long> delayedUntil = new HashMap<>();
  private final Map<String, Integer> failures = new HashMap<>();
  private final ScheduledExecutorService timer;
  private final Duration backoffBase;
  private final Duration backoffMax;
  private boolean shutDown;

  WorkQueue(ScheduledExecutorService timer, Duration backoffBase, Duration backoffMax) {
    this.timer = timer;
    this.backoffBase = backoffBase;
    this.backoffMax = backoffMax;
  }

  /** Queues {@code id} now (once). */
  synchronized void add(String id) {
    if (shutDown) {
      return;
    }
    if (processing.contains(id)) {
      dirty.add(id);
      return;
    }
    if (queued.add(id)) {
      ready.addLast(id);
      notifyAll();
    }
  }

  /** Queues {@code id} after {@code delay}; an earlier pending delay for it wins. */
  void addAfter(String id, Duration delay) {
    if (delay.isZero() || delay.isNegative()) {
      add(id);
      return;
    }
    long due = System.nanoTime() + delay.toNanos();
    synchronized (this) {
      if (shutDown) {
        return;
      }
      Long pending = delayedUntil.get(id);
      if (pending != null && pending - due <= 0) {
        return;
      }
      delayedUntil.put(id, due);
    }
    try {
      timer.schedule(
          () -> {
            synchronized (this) {
              Long pending = delayedUntil.get(id);
              if (pending != null && pending == due) {
                delayedUntil.remove(id);
              }
            }
            add(id);
          },
          delay.toNanos(),
          TimeUnit.NANOSECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // shutting down
    }
  }

  /** Queues {@code id} again after its backoff; returns the delay. */
  Duration retry(String id) {
    int n;
    synchronized (this) {
      n = failures.merge(id, 1, Integer::sum);
    }
    Duration delay = backoff(n);
    addAfter(id, delay);
    return delay;
  }

  /**
   * The delay after the {@code n}th consecutive failure: base * 2^(n-1), capped, jittered +-20%.
   */
  Duration backoff(int n) {
    double exp = backoffBase.toNanos() * Math.pow(2, Math.min(n - 1, 30));
    double capped = Math.min(exp, backoffMax.toNanos());
    double jittered = capped * (0.8 + 0.4 * ThreadLocalRandom.current().nextDouble());
    return Duration.ofNanos((long) Math.min(jittered, backoffMax.toNanos()));
  }

  /** Resets {@code id}'s backoff. */
  synchronized void forget(String id) {
    failures.remove(id);
  }

  /** The next id, waiting for one; null once shut down. */
  synchronized String take() throws InterruptedException {
    while (ready.isEmpty() && !shutDown) {
      wait();
    }
    if (shutDown) {
      return null;
    }
    String id = ready.removeFirst();
    queued.remove(id);
    processing.add(id);
    return id;
  }

  /** The worker is done with {@code id}; queues it again if it was added meanwhile. */
  synchronized void done(String id) {
    processing.remove(id);
    if (dirty.remove(id)) {
      add(id);
    }
  }

  /** Ids waiting to be handed out now. */
  synchronized int depth() {
    return ready.size();
  }

  /** Stops handing out ids; waiting workers get null. */
  synchronized void shutDown() {
    shutDown = true;
    ready.clear();
    queued.clear();
    notifyAll();
  }
}
