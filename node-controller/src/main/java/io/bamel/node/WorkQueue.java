package io.bamel.node;

import dev.failsafe.RetryPolicy;
import io.bamel.inventory.runtime.Retries;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The controller's queue of node ids.
 *
 * <ul>
 *   <li>An id is held at most once: adding a queued id does nothing.
 *   <li>An id is handed to at most one worker at a time: an id added while a worker has it is
 *       queued again when that worker calls {@link #done}.
 *   <li>{@link #addAfter} delays an id; {@link #retry} delays it by the requeue policy of {@link
 *       Retries#requeue} (base doubled per consecutive failure, capped, jittered), which {@link
 *       #forget} resets.
 * </ul>
 *
 * Thread-safe; waiting in {@link #take} parks a virtual thread without pinning its carrier (a lock
 * and condition, not a monitor).
 */
final class WorkQueue {

  private final ArrayDeque<String> ready = new ArrayDeque<>();
  private final Set<String> queued = new HashSet<>();
  private final Set<String> processing = new HashSet<>();
  private final Set<String> dirty = new HashSet<>();
  private final Map<String, Long> delayedUntil = new HashMap<>();
  private final Map<String, Integer> failures = new HashMap<>();
  private final ScheduledExecutorService timer;
  private final RetryPolicy<Object> requeue;
  private final Duration backoffMax;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition nonEmpty = lock.newCondition();
  private boolean shutDown;

  WorkQueue(ScheduledExecutorService timer, Duration backoffBase, Duration backoffMax) {
    this.timer = timer;
    this.requeue = Retries.requeue(backoffBase, backoffMax).build();
    this.backoffMax = backoffMax;
  }

  /** Queues {@code id} now (once). */
  void add(String id) {
    lock.lock();
    try {
      if (shutDown) {
        return;
      }
      if (processing.contains(id)) {
        dirty.add(id);
        return;
      }
      if (queued.add(id)) {
        ready.addLast(id);
        nonEmpty.signal();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Queues {@code id} after {@code delay}; an earlier pending delay for it wins. */
  void addAfter(String id, Duration delay) {
    if (delay.isZero() || delay.isNegative()) {
      add(id);
      return;
    }
    long due = System.nanoTime() + delay.toNanos();
    lock.lock();
    try {
      if (shutDown) {
        return;
      }
      Long pending = delayedUntil.get(id);
      if (pending != null && pending - due <= 0) {
        return;
      }
      delayedUntil.put(id, due);
    } finally {
      lock.unlock();
    }
    try {
      timer.schedule(
          () -> {
            lock.lock();
            try {
              Long pending = delayedUntil.get(id);
              if (pending == null || pending != due) {
                return; // removed, or due sooner by a later call (which adds it then)
              }
              delayedUntil.remove(id);
            } finally {
              lock.unlock();
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
    lock.lock();
    try {
      n = failures.merge(id, 1, Integer::sum);
    } finally {
      lock.unlock();
    }
    Duration delay = backoff(n);
    addAfter(id, delay);
    return delay;
  }

  /**
   * The delay after the {@code n}th consecutive failure: base * 2^(n-1), capped, jittered +-20%
   * (Failsafe's delay for that many failures), and never past the cap: Failsafe jitters after
   * capping, so a capped delay could otherwise reach 1.2 times the cap.
   */
  Duration backoff(int n) {
    Duration delay = Retries.delayAfter(requeue, n);
    return delay.compareTo(backoffMax) > 0 ? backoffMax : delay;
  }

  /**
   * Drops {@code id}: out of the queue, its delay and backoff forgotten, and not queued again when
   * a worker that has it now is done (another replica owns it now).
   */
  void remove(String id) {
    lock.lock();
    try {
      if (queued.remove(id)) {
        ready.remove(id);
      }
      dirty.remove(id);
      delayedUntil.remove(id);
      failures.remove(id);
    } finally {
      lock.unlock();
    }
  }

  /** Resets {@code id}'s backoff. */
  void forget(String id) {
    lock.lock();
    try {
      failures.remove(id);
    } finally {
      lock.unlock();
    }
  }

  /** The next id, waiting for one; null once shut down. */
  String take() throws InterruptedException {
    lock.lockInterruptibly();
    try {
      while (ready.isEmpty() && !shutDown) {
        nonEmpty.await();
      }
      if (shutDown) {
        return null;
      }
      String id = ready.removeFirst();
      queued.remove(id);
      processing.add(id);
      return id;
    } finally {
      lock.unlock();
    }
  }

  /** The worker is done with {@code id}; queues it again if it was added meanwhile. */
  void done(String id) {
    lock.lock();
    try {
      processing.remove(id);
      if (dirty.remove(id)) {
        add(id); // reentrant
      }
    } finally {
      lock.unlock();
    }
  }

  /** Ids waiting to be handed out now. */
  int depth() {
    lock.lock();
    try {
      return ready.size();
    } finally {
      lock.unlock();
    }
  }

  /** Stops handing out ids; waiting workers get null. */
  void shutDown() {
    lock.lock();
    try {
      shutDown = true;
      ready.clear();
      queued.clear();
      nonEmpty.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
