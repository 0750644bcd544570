package io.bamel.inventory.api.http;

import dev.failsafe.RetryPolicy;
import io.bamel.inventory.runtime.Retries;
import io.bamel.inventory.store.AlreadyExistsException;
import io.bamel.inventory.store.ConflictException;
import java.util.function.Supplier;

/**
 * Runs a read-decide-write step until it does not lose a compare-and-swap: the one such retry loop
 * of bamel (the store offers single compare-and-swap writes; callers decide what to retry), with
 * the shared {@link Retries#conflict} policy's delays between attempts. A conditional request
 * (If-Match) does not retry: losing the race means its precondition failed, and it answers 412.
 */
public final class Attempts {

  private static final int MAX = 50;
  private static final RetryPolicy<Object> RACES = Retries.conflict(MAX).build();

  private Attempts() {}

  public static <T> T run(boolean conditional, String what, Supplier<T> step) {
    for (int attempt = 0; ; attempt++) {
      try {
        return step.get();
      } catch (ConflictException | AlreadyExistsException e) {
        if (conditional) {
          throw Problems.preconditionFailed(what + " changed: " + e.getMessage());
        }
        if (attempt >= MAX) {
          throw Problems.conflict(what + " keeps changing; try again");
        }
        try {
          Retries.pause(RACES, attempt + 1);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw Problems.unavailable("interrupted");
        }
      }
    }
  }
}
