package io.bamel.inventory.runtime;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;

/**
 * The threads bamel cannot live without (the inventory cache, the controllers' loops, etcd
 * maintenance). They are named with the prefix {@value #PREFIX}, so that {@link FatalErrorHandler}
 * knows that their death leaves the process half alive: {@code /healthz} answering while nothing
 * moves. A loop body wrapped by {@link #guarded} survives ordinary failures (logged, next round)
 * but hands an {@link Error} (out of memory, stack overflow, a missing class) to the thread's
 * uncaught-exception handler, where a plain executor would keep it in a future nobody reads.
 */
public final class CoreThreads {

  /** The name prefix of core threads. */
  public static final String PREFIX = "bamel-";

  private CoreThreads() {}

  /** Whether {@code thread} is a core thread. */
  public static boolean isCore(Thread thread) {
    return thread.getName().startsWith(PREFIX);
  }

  /**
   * A factory of daemon core threads named {@code bamel-<name>} (and {@code -2}, {@code -3}, ...
   * after the first).
   */
  public static ThreadFactory factory(String name) {
    AtomicInteger count = new AtomicInteger();
    return task -> {
      int n = count.incrementAndGet();
      Thread t = new Thread(task, PREFIX + name + (n == 1 ? "" : "-" + n));
      t.setDaemon(true);
      return t;
    };
  }

  /**
   * {@code task} as a loop body: a {@link RuntimeException} is logged as a WARN with {@code what}
   * and the loop goes on; an {@link Error} goes to the current thread's uncaught-exception handler
   * (in a server, {@link FatalErrorHandler}: the process exits) and is rethrown.
   */
  public static Runnable guarded(String what, Logger log, Runnable task) {
    return () -> {
      try {
        task.run();
      } catch (RuntimeException e) {
        log.warn("{} failed: {}", what, e.toString());
      } catch (Error e) {
        Thread current = Thread.currentThread();
        current.getUncaughtExceptionHandler().uncaughtException(current, e);
        throw e;
      }
    };
  }
}
