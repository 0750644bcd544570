package io.bamel.inventory.maintenance;

import io.bamel.inventory.runtime.CoreThreads;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;

/**
 * The thread of a maintenance task that only the leader runs (compaction, defragmentation): {@link
 * #start} schedules the task with a fixed delay while leading, a failed run logged and the next one
 * made as scheduled; {@link #stop} cancels it when leadership is lost; {@link #close} ends the
 * thread. Starting twice keeps the first schedule.
 */
final class LeaderTimer implements AutoCloseable {

  private final String what;
  private final Logger log;
  private final ScheduledExecutorService timer;
  private ScheduledFuture<?> task;

  /**
   * A timer on a thread named {@code threadName}, logging failures of {@code what} to {@code log}.
   */
  LeaderTimer(String threadName, String what, Logger log) {
    this.what = what;
    this.log = log;
    this.timer = Executors.newSingleThreadScheduledExecutor(CoreThreads.factory(threadName));
  }

  /** Runs {@code tick} after {@code initialDelay}, then {@code interval} after each run ends. */
  synchronized void start(Duration initialDelay, Duration interval, Runnable tick) {
    if (task == null) {
      task =
          timer.scheduleWithFixedDelay(
              CoreThreads.guarded(what, log, tick),
              initialDelay.toMillis(),
              interval.toMillis(),
              TimeUnit.MILLISECONDS);
    }
  }

  /** Cancels the schedule (a run in progress finishes). */
  synchronized void stop() {
    if (task != null) {
      task.cancel(false);
      task = null;
    }
  }

  /**
   * Runs {@code action} once on the timer's thread, after any run in progress; after {@link #close}
   * drops it, since no run follows that it could prepare for (a leadership lost during shutdown,
   * after the timer was closed, reset a schedule nothing will use).
   */
  void execute(Runnable action) {
    try {
      timer.execute(action);
    } catch (RejectedExecutionException e) {
      // closed: nothing runs on this timer any more
    }
  }

  @Override
  public void close() {
    stop();
    timer.shutdownNow();
  }
}
