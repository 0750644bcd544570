package io.bamel.inventory.leader;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Waits for the jetcd requests of the coordination loops (leader election, the replica registry,
 * their leases): each request gets a deadline, and any failure, the deadline included, becomes an
 * {@link IllegalStateException} that the loop logs and retries on its next tick. The store maps
 * failures to its own exceptions instead (see {@code io.bamel.inventory.store}).
 */
public final class EtcdRequests {

  private EtcdRequests() {}

  /**
   * The future's value, waiting at most {@code timeout}; a future not done by then is cancelled.
   *
   * @throws IllegalStateException when the request failed, timed out or the thread was interrupted
   *     (the interrupt flag is set again)
   */
  public static <T> T await(CompletableFuture<T> future, Duration timeout) {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (Exception e) {
      future.cancel(true);
      throw new IllegalStateException("etcd request failed: " + e, e);
    }
  }
}
