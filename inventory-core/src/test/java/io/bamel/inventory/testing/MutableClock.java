package io.bamel.inventory.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A fake clock for tests of time-based logic: it stands still at the instant it was made with and
 * moves only when the test calls {@link #advance}. Safe to read from other threads. (A test whose
 * code under test also waits in real time uses a clock that runs, such as the node controller's
 * {@code OffsetClock}; {@code power-drivers}, which depends on nothing of the inventory, has its
 * own copy of this one.)
 */
public final class MutableClock extends Clock {

  private volatile Instant now;

  /** A clock standing at {@code start}. */
  public MutableClock(Instant start) {
    now = start;
  }

  /** Moves the clock forward by {@code d}. */
  public void advance(Duration d) {
    now = now.plus(d);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    return now;
  }
}
