package io.bamel.inventory.api;

import io.bamel.inventory.api.http.ApiException;
import io.bamel.inventory.api.http.Problems;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Whether etcd answers, within a deadline shorter than the store's own timeout: a readiness probe
 * must answer before the prober gives up, and a stopped etcd otherwise holds the call for the
 * store's whole timeout. At most one read is in flight: probes that come while one is pending wait
 * for that one instead of starting another.
 */
final class EtcdProbe {

  private final EtcdInventory store;
  private final Duration deadline;
  private final AtomicReference<CompletableFuture<Long>> pending = new AtomicReference<>();

  EtcdProbe(EtcdInventory store, Duration deadline) {
    this.store = store;
    this.deadline = deadline;
  }

  /**
   * etcd's current revision.
   *
   * @throws ApiException 503 when etcd fails or does not answer within the deadline
   */
  long revision() {
    CompletableFuture<Long> read = pending.get();
    if (read == null || read.isDone()) {
      CompletableFuture<Long> fresh = new CompletableFuture<>();
      if (pending.compareAndSet(read, fresh)) {
        Thread.ofVirtual()
            .name("bamel-etcd-probe")
            .start(
                () -> {
                  try {
                    fresh.complete(store.currentRevision());
                  } catch (RuntimeException e) {
                    fresh.completeExceptionally(e);
                  }
                });
      }
      read = pending.get();
    }
    try {
      return read.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw Problems.unavailable(
          "etcd is not reachable: no answer within " + deadline.toMillis() + " ms");
    } catch (ExecutionException e) {
      String why = e.getCause() instanceof InventoryException ? "" : " (" + e.getCause() + ")";
      throw Problems.unavailable("etcd is not reachable" + why);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw Problems.unavailable("interrupted while asking etcd");
    }
  }
}
