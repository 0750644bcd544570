package io.bamel.power;

import java.time.Duration;

/** Waits; injectable so that tests of retry and polling logic need not sleep. */
@FunctionalInterface
public interface Sleeper {

  /** Sleeps with {@link Thread#sleep(Duration)}. */
  Sleeper SYSTEM = Thread::sleep;

  /** Waits for {@code duration} (nothing for zero or less). */
  void sleep(Duration duration) throws InterruptedException;
}
