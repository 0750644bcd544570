package io.bamel.bench.endurance;

import io.bamel.inventory.maintenance.CompactionSchedule;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.options.CompactOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Compaction on the simulated clock, as {@code EtcdCompactor} does it on the real one: at each tick
 * the {@link CompactionSchedule} is given etcd's revision, and etcd is compacted to the revision it
 * returns (the one seen a tick earlier). On the real clock a tick comes every 5 minutes, and etcd
 * has long finished the previous compaction by then (etcd 3.4 walks every key from the oldest
 * revision up, in batches of 1,000 with a pause of 10 ms and a commit after each, so a 10,000-node
 * fleet's compaction takes seconds). Five simulated minutes pass in a few real seconds, so each
 * tick first waits until etcd has applied the previous compaction (requested with {@code physical},
 * whose answer comes once it is applied): etcd compacts while the simulation writes, as in
 * production, and never falls more than one interval behind. Not thread-safe: one caller.
 */
final class Compactions {

  private final KV kv;
  private final WriteCounts counts;
  private final CompactionSchedule schedule = new CompactionSchedule();
  private final List<Double> millis = new ArrayList<>();
  private CompletableFuture<Double> pending;
  private long pendingTarget;

  Compactions(KV kv, WriteCounts counts) {
    this.kv = kv;
    this.counts = counts;
  }

  /** One tick at etcd revision {@code revision}. */
  void tick(long revision) throws Exception {
    finish();
    long target = schedule.tick(revision);
    if (target == 0) {
      return;
    }
    long start = System.nanoTime();
    pendingTarget = target;
    pending =
        kv.compact(target, CompactOption.builder().withCompactPhysical(true).build())
            .thenApply(r -> (System.nanoTime() - start) / 1e6);
    counts.compactions.increment();
  }

  /** Waits until the compaction requested last is applied. */
  void finish() throws Exception {
    if (pending != null) {
      millis.add(pending.get(10, TimeUnit.MINUTES));
      schedule.compactedTo(pendingTarget);
      pending = null;
    }
  }

  /** How long each compaction took, from the request until etcd had applied it. */
  List<Double> millis() {
    return List.copyOf(millis);
  }
}
