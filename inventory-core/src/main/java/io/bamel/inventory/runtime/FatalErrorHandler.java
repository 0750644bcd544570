package io.bamel.inventory.runtime;

import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process-wide uncaught-exception handler of a bamel server: an {@link Error} on any thread, or
 * any exception that kills a {@linkplain CoreThreads core thread}, is logged as one ERROR line and
 * ends the process with {@link #EXIT_CODE}, so that Kubernetes or systemd restarts it rather than
 * leaving a process whose health check passes while its cache or controllers are dead. Exceptions
 * that end other threads (a library's) are logged and the process goes on.
 */
public final class FatalErrorHandler implements Thread.UncaughtExceptionHandler {

  /** The exit code of a process ended by a fatal error (EX_SOFTWARE). */
  public static final int EXIT_CODE = 70;

  private static final Logger LOG = LoggerFactory.getLogger(FatalErrorHandler.class);

  private final IntConsumer exit;

  /** A handler that ends the process with {@code exit} (in production {@code Runtime::halt}). */
  public FatalErrorHandler(IntConsumer exit) {
    this.exit = exit;
  }

  /** Installs a handler that halts the JVM as the default of every thread. */
  public static void install() {
    Thread.setDefaultUncaughtExceptionHandler(
        new FatalErrorHandler(code -> Runtime.getRuntime().halt(code)));
  }

  @Override
  public void uncaughtException(Thread thread, Throwable error) {
    boolean fatal = error instanceof Error || CoreThreads.isCore(thread);
    if (!fatal) {
      LOG.warn("thread {} ended by {}", thread.getName(), error.toString(), error);
      return;
    }
    try {
      LOG.error(
          "fatal: thread {} died of {}; exiting with {} so that the process is restarted",
          thread.getName(),
          error.toString(),
          EXIT_CODE);
    } catch (Throwable logging) {
      // Out of memory may fail the log line too; exit regardless.
    }
    exit.accept(EXIT_CODE);
  }
}
