package io.bamel.power;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Limits what reaches one BMC (or hypervisor): at most {@code maxConcurrent} requests at a time,
 * and each at least {@code minInterval} after the last request to that BMC began or ended (BMCs
 * fail under bursts; a chassis manager or a Proxmox host serves many machines through one address).
 * Requests to different BMCs never wait for each other. Thread-safe; waiting is fair (first come,
 * first served).
 *
 * <p>With {@code maxConcurrent} 1 this is the IPMI rule: one command at a time, {@code minInterval}
 * after the previous one ended.
 */
public final class BmcPacer {

  /** A BMC's turn; closing it ends the request. */
  public interface Turn extends AutoCloseable {

    /**
     * Waits out the minimum interval before a further request in this same turn (a diagnostic
     * re-run, say): the request before it has just ended.
     */
    void spaceNext() throws InterruptedException;

    @Override
    void close();
  }

  private static final class Slot {
    final Semaphore permits;
    Instant lastEvent = Instant.MIN; // guarded by this

    Slot(int maxConcurrent) {
      this.permits = new Semaphore(maxConcurrent, true);
    }
  }

  private final Map<String, Slot> slots = new ConcurrentHashMap<>();
  private final int maxConcurrent;
  private final Duration minInterval;
  private final Clock clock;
  private final Sleeper sleeper;

  /** A pacer allowing {@code maxConcurrent} requests per BMC, {@code minInterval} apart. */
  public BmcPacer(int maxConcurrent, Duration minInterval, Clock clock, Sleeper sleeper) {
    if (maxConcurrent < 1) {
      throw new IllegalArgumentException("maxConcurrent must be at least 1, not " + maxConcurrent);
    }
    if (minInterval.isNegative()) {
      throw new IllegalArgumentException("minInterval must not be negative");
    }
    this.maxConcurrent = maxConcurrent;
    this.minInterval = minInterval;
    this.clock = clock;
    this.sleeper = sleeper;
  }

  /** One request at a time per BMC, {@code minInterval} after the previous one ended (IPMI). */
  public BmcPacer(Duration minInterval, Clock clock, Sleeper sleeper) {
    this(1, minInterval, clock, sleeper);
  }

  /** The most requests one BMC gets at a time. */
  public int maxConcurrent() {
    return maxConcurrent;
  }

  /** The least time between two requests to one BMC. */
  public Duration minInterval() {
    return minInterval;
  }

  /**
   * How long to wait before the next request, given when the last one to the BMC began or ended.
   * Pure.
   */
  public static Duration waitBefore(Instant lastEvent, Instant now, Duration minInterval) {
    if (lastEvent.equals(Instant.MIN)) {
      return Duration.ZERO;
    }
    Duration since = Duration.between(lastEvent, now);
    Duration left = minInterval.minus(since);
    return left.isNegative() ? Duration.ZERO : left;
  }

  /**
   * Waits for a turn at {@code bmc} (any key naming one BMC, such as {@code host:port}), at most
   * {@code maxWait} in all; empty when the wait would run past it.
   *
   * @return the turn, to be closed when the request has ended
   */
  public Optional<Turn> acquire(String bmc, Duration maxWait) throws InterruptedException {
    Slot slot = slots.computeIfAbsent(bmc, b -> new Slot(maxConcurrent));
    Instant start = clock.instant();
    if (!slot.permits.tryAcquire(Math.max(0, maxWait.toMillis()), TimeUnit.MILLISECONDS)) {
      return Optional.empty();
    }
    Duration wait;
    synchronized (slot) {
      Instant now = clock.instant();
      wait = waitBefore(slot.lastEvent, now, minInterval);
      Duration left = maxWait.minus(Duration.between(start, now));
      if (!wait.isZero() && wait.compareTo(left) > 0) {
        slot.permits.release();
        return Optional.empty();
      }
      slot.lastEvent = now.plus(wait); // this request's start: the next one is spaced from it
    }
    try {
      sleeper.sleep(wait);
    } catch (InterruptedException e) {
      slot.permits.release();
      throw e;
    }
    return Optional.of(
        new Turn() {
          private boolean closed;

          @Override
          public void spaceNext() throws InterruptedException {
            sleeper.sleep(minInterval);
          }

          @Override
          public void close() {
            if (closed) {
              return;
            }
            closed = true;
            synchronized (slot) {
              Instant now = clock.instant();
              if (now.isAfter(slot.lastEvent)) {
                slot.lastEvent = now;
              }
            }
            slot.permits.release();
          }
        });
  }
}
