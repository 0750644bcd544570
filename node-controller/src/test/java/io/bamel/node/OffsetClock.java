package io.bamel.node;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that runs with real time plus an offset the test moves forward: for integration tests
 * where the controller's threads also wait in real time (timeouts, pacing) while the test jumps
 * over minutes of its schedule. A clock that stands still is {@code
 * org.threeten.extra.MutableClock} (ThreeTen-Extra).
 */
final class OffsetClock extends Clock {

  private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

  void advance(Duration by) {
    offset.updateAndGet(d -> d.plus(by));
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
    return Instant.now().plus(offset.get());
  }
}
