package io.bamel.inventory.store;

import java.util.concurrent.ThreadLocalRandom;

/** A short, jittered pause between attempts of a lost compare-and-swap. */
final class Backoff {

  private static final long BASE_MILLIS = 2;
  private static final long CAP_MILLIS = 50;

  private Backoff() {}

  /** Sleeps a random time up to {@code 2 ms x 2^attempt}, capped at 50 ms. */
  static void pause(int attempt) {
    long ceiling = Math.min(CAP_MILLIS, BASE_MILLIS << Math.min(attempt, 16));
    try {
      Thread.sleep(ThreadLocalRandom.current().nextLong(ceiling + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreUnavailableException("interrupted while retrying", e);
    }
  }
}
