package io.bamel.power.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that tests move by hand. Thread-safe. */
public final class MutableClock extends Clock {

  private volatile Instant now;

  /** A clock at {@code start}. */
  public MutableClock(Instant start) {
    this.now = start;
  }

  /** Moves the clock forward. */
  public void advance(Duration duration) {
    now = now.plus(duration);
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
