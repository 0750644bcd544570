package io.bamel.inventory.store;

import io.etcd.jetcd.common.exception.CompactedException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waits for jetcd futures with a deadline and maps jetcd's failures to the store's. */
final class Etcd {

  private Etcd() {}

  /**
   * The future's value, waiting at most {@code timeout}.
   *
   * @throws io.bamel.inventory.store.CompactedException when a pinned revision was compacted
   * @throws StoreUnavailableException on any other etcd failure or the deadline
   */
  static <T> T await(CompletableFuture<T> future, Duration timeout, String what) {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      future.cancel(true);
      throw new StoreUnavailableException("interrupted while " + what, e);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw new StoreUnavailableException(
          "etcd did not answer within " + timeout.toMillis() + " ms while " + what, e);
    } catch (ExecutionException e) {
      throw translate(e.getCause(), what);
    }
  }

  static InventoryException translate(Throwable cause, String what) {
    if (cause instanceof CompactedException c) {
      return new io.bamel.inventory.store.CompactedException(0, c.getCompactedRevision());
    }
    if (String.valueOf(cause.getMessage()).contains("required revision has been compacted")) {
      return new io.bamel.inventory.store.CompactedException(0, 0);
    }
    if (cause instanceof InventoryException ie) {
      return ie;
    }
    return new StoreUnavailableException("etcd failed while " + what + ": " + cause, cause);
  }
}
