package io.bamel.bench;

import io.bamel.power.BmcPowerState;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts a benchmark's power-state reads and those that returned {@code unknown}. A read the driver
 * could not understand comes back {@code unknown} instead of failing, so a benchmark of such reads
 * times answers that were not read at all (a renamed Redfish {@code PowerState} once made every
 * read {@code unknown} while the benchmarks stayed green): {@link #requireRealStates} fails the run
 * when any read was {@code unknown}. Thread-safe.
 */
public final class PowerReadTally {

  private final AtomicLong reads = new AtomicLong();
  private final AtomicLong unknown = new AtomicLong();

  /** Records one read's answer and returns it. */
  public BmcPowerState record(BmcPowerState state) {
    reads.incrementAndGet();
    if (state == null || state == BmcPowerState.UNKNOWN) {
      unknown.incrementAndGet();
    }
    return state;
  }

  /** Reads recorded so far. */
  public long reads() {
    return reads.get();
  }

  /** Reads recorded so far that returned {@code unknown} (or nothing). */
  public long unknown() {
    return unknown.get();
  }

  /**
   * Fails the run of {@code benchmark} when any recorded read returned {@code unknown}.
   *
   * @throws IllegalStateException naming the benchmark and how many reads were unknown
   */
  public void requireRealStates(String benchmark) {
    long bad = unknown.get();
    if (bad > 0) {
      throw new IllegalStateException(
          String.format(
              java.util.Locale.ROOT,
              "%s: %,d of %,d power reads returned unknown: the driver did not understand the"
                  + " BMC's answer, so the run measured no real power state",
              benchmark,
              bad,
              reads.get()));
    }
  }
}
