package io.bamel.bench.node;

import io.bamel.bench.PowerReadTally;
import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.Deadline;
import io.bamel.power.InterceptingPowerDriver;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOperation;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A power driver that passes every call to the real one and records, since its last {@link
 * #reset()}, the power-state reads and power-draw reads per BMC address, the start of the first
 * read and the end of the last one ({@code System.nanoTime()}), the time those reads took together,
 * and the calls under way. One per replica: it tells which replica read which node, how long that
 * replica's pass took and how many calls it kept under way on average. It also tallies every read's
 * answer, so that a run whose reads came back {@code unknown} fails.
 */
final class PassRecorder extends InterceptingPowerDriver {

  private final Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> draws = new ConcurrentHashMap<>();
  private final AtomicLong firstStart = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong lastEnd = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong total = new AtomicLong();
  private final AtomicLong readNanos = new AtomicLong();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger peak = new AtomicInteger();
  private final PowerReadTally tally = new PowerReadTally();

  PassRecorder(PowerDriver real) {
    super(real);
  }

  /** Forgets everything recorded so far. */
  void reset() {
    reads.clear();
    draws.clear();
    firstStart.set(Long.MAX_VALUE);
    lastEnd.set(Long.MIN_VALUE);
    readNanos.set(0);
    peak.set(inFlight.get());
  }

  /** Power-state reads of the BMC at {@code address} since the last reset. */
  int reads(String address) {
    AtomicInteger n = reads.get(address);
    return n == null ? 0 : n.get();
  }

  /** The BMCs whose power state was read since the last reset (cheap: no per-node lookup). */
  int nodesRead() {
    return reads.size();
  }

  /** Power-draw reads of the BMC at {@code address} since the last reset. */
  int draws(String address) {
    AtomicInteger n = draws.get(address);
    return n == null ? 0 : n.get();
  }

  /** Power-draw reads of every BMC since the last reset. */
  long drawReads() {
    return draws.values().stream().mapToLong(AtomicInteger::get).sum();
  }

  /**
   * The time the power-state and power-draw reads since the last reset took, added up
   * (nanoseconds): over the span from the first read's start to the last one's end, the mean number
   * of reads under way at once.
   */
  long readNanos() {
    return readNanos.get();
  }

  /** Every power-state read's answer since this driver was made (never reset). */
  PowerReadTally tally() {
    return tally;
  }

  /** Calls of any kind passed on since this driver was made (never reset). */
  long total() {
    return total.get();
  }

  /** Calls under way now. */
  int inFlight() {
    return inFlight.get();
  }

  /** The most calls under way at once since the last reset. */
  int peakInFlight() {
    return peak.get();
  }

  /** The start of the first read since the last reset (nanoTime), or {@code Long.MAX_VALUE}. */
  long firstStart() {
    return firstStart.get();
  }

  /** The end of the last read since the last reset (nanoTime), or {@code Long.MIN_VALUE}. */
  long lastEnd() {
    return lastEnd.get();
  }

  @Override
  protected <T> T around(PowerOperation operation, BmcEndpoint endpoint, Call<T> call)
      throws PowerException {
    Map<String, AtomicInteger> counts =
        switch (operation) {
          case STATUS -> reads;
          case POWER_DRAW -> draws;
          default -> null;
        };
    total.incrementAndGet();
    peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
    long start = System.nanoTime();
    try {
      return call.run();
    } finally {
      inFlight.decrementAndGet();
      if (counts != null) {
        counts.computeIfAbsent(endpoint.address(), k -> new AtomicInteger()).incrementAndGet();
        long end = System.nanoTime();
        readNanos.addAndGet(end - start);
        firstStart.accumulateAndGet(start, Math::min);
        lastEnd.accumulateAndGet(end, Math::max);
      }
    }
  }

  @Override
  public BmcPowerState bmcPowerState(BmcEndpoint endpoint, Deadline deadline)
      throws PowerException {
    return tally.record(super.bmcPowerState(endpoint, deadline));
  }
}
