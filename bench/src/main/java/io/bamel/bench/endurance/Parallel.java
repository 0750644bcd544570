package io.bamel.bench.endurance;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Takes a list of items in slices of a few items, each slice on a virtual thread of its own, and
 * returns when every item is done, rethrowing the first failure. Each item is handled by exactly
 * one thread. Many slices wait on etcd at once, so etcd commits their writes together, as it does
 * for a controller's concurrent workers; on the simulated clock a minute's writes then take a few
 * commit rounds instead of one per write.
 */
final class Parallel implements AutoCloseable {

  private final int slice;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();

  /** Slices of {@code slice} items. */
  Parallel(int slice) {
    this.slice = slice;
  }

  /** Runs {@code work} on every item and waits for all. */
  <T> void forEach(List<T> items, Consumer<T> work) throws InterruptedException {
    List<Callable<Void>> tasks = new ArrayList<>(items.size() / slice + 1);
    for (int from = 0; from < items.size(); from += slice) {
      List<T> part = items.subList(from, Math.min(items.size(), from + slice));
      tasks.add(
          () -> {
            for (T item : part) {
              work.accept(item);
            }
            return null;
          });
    }
    for (Future<Void> done : executor.invokeAll(tasks)) {
      try {
        done.get();
      } catch (ExecutionException e) {
        throw e.getCause() instanceof RuntimeException r
            ? r
            : new IllegalStateException(e.getCause());
      }
    }
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
