package io.bamel.pool;

import io.bamel.inventory.logging.FailureLog;
import io.bamel.inventory.model.Pool;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.FencedException;
import io.bamel.inventory.store.InventoryException;
import io.bamel.inventory.store.NotFoundException;
import io.bamel.inventory.store.WriteFence;
import io.bamel.pool.history.DemandHistory;
import io.bamel.pool.history.HistoryFormatException;
import io.bamel.pool.history.HistoryJson;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pool controller's keeping of each pool's {@link DemandHistory} in etcd ({@code
 * /baremetal/pools/{pool}/history}, {@link HistoryJson}), so that a new leader continues it.
 *
 * <ul>
 *   <li><b>Read once per term:</b> a pool's history is read the first time a cycle of this
 *       leadership term sees the pool ({@link #current}); {@link #forget} at a term change. A value
 *       that cannot be read is logged (a WARN naming the pool and why, never the value) and
 *       replaced by an empty history, written back at the pool's next write. A read that fails
 *       (etcd unavailable) is tried again next cycle; meanwhile nothing of that pool is written, so
 *       a history etcd holds is never overwritten by one that did not start from it.
 *   <li><b>Written once per closed hour:</b> {@link #persist} writes a pool's history when the
 *       hours learned changed since the value last written or read ({@link
 *       DemandHistory#learnedThrough()}), that is at the first cycle after an hour closes; never
 *       otherwise (the open hour's running peak is written only along). Fenced by leadership like
 *       the pool status, and only while the pool has a config, so a write racing the pool's
 *       deletion leaves nothing behind. At 100 pools: 2,400 writes a day of about 5 KB each.
 * </ul>
 *
 * Not thread-safe: the controller's cycle (one at a time) calls it.
 */
final class PoolHistories {

  private static final Logger log = LoggerFactory.getLogger(PoolHistories.class);

  /** The stored value could not be read: anything written next differs from it. */
  private static final Instant UNREADABLE = Instant.MIN;

  /** A pool's history and the {@link DemandHistory#learnedThrough()} of the value etcd holds. */
  private record Kept(DemandHistory current, Instant stored) {}

  private final EtcdInventory store;
  private final FailureLog readLog;
  private final FailureLog writeLog;
  private final Map<String, Kept> kept = new HashMap<>();

  PoolHistories(EtcdInventory store, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.readLog = new FailureLog(log, "pool", "demand-history-read", clock);
    this.writeLog = new FailureLog(log, "pool", "demand-history-write", clock);
  }

  /**
   * The histories of {@code pools} before this cycle, reading from etcd those not read yet in this
   * term; a pool whose read failed is absent (its cycle starts from an empty history, not kept).
   */
  Map<String, DemandHistory> current(List<Pool> pools) {
    Map<String, DemandHistory> out = new HashMap<>();
    for (Pool p : pools) {
      Kept k = kept.get(p.name());
      if (k == null) {
        k = load(p.name());
      }
      if (k != null) {
        out.put(p.name(), k.current());
      }
    }
    return out;
  }

  /** Keeps {@code history} as {@code pool}'s (ignored for a pool whose read failed). */
  void update(String pool, DemandHistory history) {
    kept.computeIfPresent(pool, (name, k) -> new Kept(history, k.stored()));
  }

  /**
   * Writes {@code pool}'s history when an hour closed since the value etcd holds. Returns the
   * revision written, or -1 when nothing was (not due, or a failure logged and tried again next
   * cycle).
   *
   * @throws FencedException when this process no longer leads (nothing written)
   */
  long persist(String pool, WriteFence fence) {
    Kept k = kept.get(pool);
    if (k == null || Objects.equals(k.current().learnedThrough(), k.stored())) {
      return -1;
    }
    try {
      long revision = store.putPoolHistory(pool, HistoryJson.write(k.current()), fence);
      kept.put(pool, new Kept(k.current(), k.current().learnedThrough()));
      writeLog.recovered(pool);
      return revision;
    } catch (FencedException e) {
      throw e;
    } catch (NotFoundException e) {
      kept.remove(pool); // the pool's config was deleted: its history goes with it
      return -1;
    } catch (InventoryException e) {
      writeLog.failed(pool, "etcd", e.getMessage());
      return -1;
    }
  }

  /** Forgets {@code pool} (its config is gone). */
  void remove(String pool) {
    kept.remove(pool);
    readLog.forget(pool);
    writeLog.forget(pool);
  }

  /** Forgets every pool: the next cycle reads what etcd holds (a new leadership term). */
  void forget() {
    kept.clear();
  }

  private Kept load(String pool) {
    Optional<byte[]> raw;
    try {
      raw = store.getPoolHistory(pool);
    } catch (InventoryException e) {
      readLog.failed(pool, "etcd", e.getMessage());
      return null;
    }
    readLog.recovered(pool);
    Kept k;
    if (raw.isEmpty()) {
      k = new Kept(DemandHistory.empty(), null);
    } else {
      try {
        DemandHistory h = HistoryJson.read(raw.get());
        k = new Kept(h, h.learnedThrough());
      } catch (HistoryFormatException e) {
        log.atWarn()
            .addKeyValue("pool", pool)
            .addKeyValue("reason", e.getMessage())
            .log(
                "pool {}: its stored demand history cannot be read ({}); starting afresh, and"
                    + " replacing it at the next write",
                pool,
                e.getMessage());
        k = new Kept(DemandHistory.empty(), UNREADABLE);
      }
    }
    kept.put(pool, k);
    return k;
  }
}
