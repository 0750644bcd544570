package io.bamel.power.ipmi;

import io.bamel.power.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One command at a time per BMC, at least {@code minInterval} apart (BMCs fail under bursts).
 * Commands to different BMCs run in parallel.
 */
final class BmcPacer {

  /** A BMC's turn; closing it ends the command. */
  interface Turn extends AutoCloseable {

    /**
     * Waits out the minimum interval before a further command in this same turn (a diagnostic
     * re-run, say): the command before it has just ended.
     */
    void spaceNext() throws InterruptedException;

    @Override
    void close();
  }

  private static final class Slot {
    final ReentrantLock lock = new ReentrantLock(true);
    Instant lastEnd = Instant.MIN;
  }

  private final Map<String, Slot> slots = new ConcurrentHashMap<>();
  private final Duration minInterval;
  private final Clock clock;
  private final Sleeper sleeper;

  BmcPacer(Duration minInterval, Clock clock, Sleeper sleeper) {
    this.minInterval = minInterval;
    this.clock = clock;
    this.sleeper = sleeper;
  }

  /** How long to wait before the next command, given when the last ended. Pure. */
  static Duration waitBefore(Instant lastEnd, Instant now, Duration minInterval) {
    if (lastEnd.equals(Instant.MIN)) {
      return Duration.ZERO;
    }
    Duration since = Duration.between(lastEnd, now);
    Duration left = minInterval.minus(since);
    return left.isNegative() ? Duration.ZERO : left;
  }

  /**
   * Waits for {@code bmc}'s turn, at most {@code maxWait}; empty when the wait ran out.
   *
   * @return the turn, to be closed when the command has ended
   */
  java.util.Optional<Turn> acquire(String bmc, Duration maxWait) throws InterruptedException {
    Slot slot = slots.computeIfAbsent(bmc, b -> new Slot());
    if (!slot.lock.tryLock(maxWait.toMillis(), TimeUnit.MILLISECONDS)) {
      return java.util.Optional.empty();
    }
    try {
      sleeper.sleep(waitBefore(slot.lastEnd, clock.instant(), minInterval));
    } catch (InterruptedException e) {
      slot.lock.unlock();
      throw e;
    }
    return java.util.Optional.of(
        new Turn() {
          @Override
          public void spaceNext() throws InterruptedException {
            sleeper.sleep(minInterval);
          }

          @Override
          public void close() {
            slot.lastEnd = clock.instant();
            slot.lock.unlock();
          }
        });
  }
}
