package io.bamel.node;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;

/**
 * The node controller's workers: virtual threads, each running the same loop until it returns, so a
 * worker waiting for a BMC, Kubernetes or etcd holds no platform thread. {@link #stop} waits for
 * them within a bound, then interrupts the ones still running.
 */
final class Workers {

  /** How long {@link #stop} waits for interrupted workers to end. */
  static final Duration INTERRUPT_GRACE = Duration.ofSeconds(1);

  private final List<Thread> threads = new ArrayList<>();

  /** Starts {@code count} virtual threads named {@code node-worker-N} running {@code loop}. */
  Workers(int count, Runnable loop) {
    ThreadFactory virtual = Thread.ofVirtual().name("node-worker-", 0).factory();
    for (int i = 0; i < count; i++) {
      Thread t = virtual.newThread(loop);
      threads.add(t);
      t.start();
    }
  }

  /**
   * Waits up to {@code grace} for every worker to end, then interrupts those still running and
   * waits {@link #INTERRUPT_GRACE} more. Returns how many are still running (stuck in a call that
   * ignores interrupts); re-asserts the caller's interrupt if it was interrupted meanwhile.
   *
   * @param onInterrupt told how many are interrupted, before they are
   */
  long stop(Duration grace, java.util.function.IntConsumer onInterrupt) {
    boolean interrupted = !join(grace);
    List<Thread> running = threads.stream().filter(Thread::isAlive).toList();
    if (!running.isEmpty()) {
      onInterrupt.accept(running.size());
      running.forEach(Thread::interrupt);
      interrupted |= !join(INTERRUPT_GRACE);
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return threads.stream().filter(Thread::isAlive).count();
  }

  /** Waits until every worker has ended or {@code bound} passed; false when interrupted. */
  private boolean join(Duration bound) {
    long deadline = System.nanoTime() + bound.toNanos();
    for (Thread t : threads) {
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
}
