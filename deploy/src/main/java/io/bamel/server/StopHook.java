package io.bamel.server;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CountDownLatch;

/**
 * How a long-running command ({@code server}, {@code demo}) stops on SIGTERM or Ctrl-C: a JVM
 * shutdown hook, installed before anything starts, closes what the command owns (in reverse order
 * of {@link #own}) and then ends the JVM with exit code 0, a normal stop. Because it is installed
 * first, a stop during start-up still closes what has started, the embedded etcd child process in
 * particular. When start-up fails, {@link #cancel()} closes what was started and removes the hook,
 * so the command's own exit code stands.
 */
public final class StopHook {

  private final Deque<AutoCloseable> owned = new ArrayDeque<>();
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final Thread thread;
  private boolean stopping;

  private StopHook(String name) {
    this.thread = new Thread(this::stop, name);
  }

  /** Installs the hook; {@code name} names its thread. */
  public static StopHook install(String name) {
    StopHook hook = new StopHook(name);
    Runtime.getRuntime().addShutdownHook(hook.thread);
    return hook;
  }

  /**
   * Makes {@code resource} closed by the hook, before everything owned earlier.
   *
   * @throws IllegalStateException when the JVM is already stopping; {@code resource} is closed
   *     first
   */
  public <T extends AutoCloseable> T own(T resource) {
    synchronized (this) {
      if (!stopping) {
        owned.push(resource);
        return resource;
      }
    }
    closeQuietly(resource);
    throw new IllegalStateException("stopping");
  }

  /** Blocks the calling (main) thread until the hook has closed everything; the JVM then exits. */
  public void awaitStop() throws InterruptedException {
    stopped.await();
  }

  /** Start-up failed: closes what is owned and removes the hook (unless the JVM is stopping). */
  public void cancel() {
    closeAll();
    try {
      Runtime.getRuntime().removeShutdownHook(thread);
    } catch (IllegalStateException e) {
      // The JVM is already stopping: the hook runs and exits with 0.
    }
  }

  private void stop() {
    closeAll();
    stopped.countDown();
    System.out.flush();
    System.err.flush();
    // SIGTERM is a normal stop: exit 0 once everything is closed.
    Runtime.getRuntime().halt(0);
  }

  private synchronized void closeAll() {
    stopping = true;
    while (!owned.isEmpty()) {
      closeQuietly(owned.pop());
    }
  }

  private static void closeQuietly(AutoCloseable resource) {
    try {
      resource.close();
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      org.slf4j.LoggerFactory.getLogger(StopHook.class)
          .warn(
              "shutdown: closing {} failed: {}", resource.getClass().getSimpleName(), e.toString());
    }
  }
}
