package io.bamel.inventory.maintenance;

import io.bamel.inventory.leader.LeadershipListener;
import io.bamel.inventory.store.WriteFence;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.common.exception.CompactedException;
import io.etcd.jetcd.options.CompactOption;
import io.etcd.jetcd.options.GetOption;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps etcd's history bounded: while this process leads, it compacts etcd every {@code interval}
 * (default 5 minutes, as kube-apiserver) to the revision it saw one interval earlier (see {@link
 * CompactionSchedule}). Compaction drops superseded values only; current keys are untouched, and
 * the freed pages are reused by etcd (defragmentation returns them to the file system; see {@code
 * docs/operations.md}). Compacting twice, or to a revision another process already compacted, is
 * harmless. Without it, every status and readings write stays in etcd forever.
 *
 * <p>Register it as a {@link LeadershipListener}; {@link #close()} stops it.
 */
public final class EtcdCompactor implements LeadershipListener, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EtcdCompactor.class);
  private static final ByteSequence ANY_KEY = ByteSequence.from("/", StandardCharsets.UTF_8);

  private final KV kv;
  private final Duration interval;
  private final Duration timeout;
  private final CompactionSchedule schedule = new CompactionSchedule();
  private final LeaderTimer timer;
  private final AtomicLong lastCompacted = new AtomicLong();

  /**
   * A compactor.
   *
   * @param kv the etcd KV client
   * @param interval the time between compactions (at least one second)
   * @param timeout the deadline of each etcd request
   */
  public EtcdCompactor(KV kv, Duration interval, Duration timeout) {
    if (interval.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException("compaction interval must be at least 1s");
    }
    this.kv = kv;
    this.interval = interval;
    this.timeout = timeout;
    this.timer = new LeaderTimer("etcd-compactor", "etcd compaction", LOG);
  }

  /** The revision this process last compacted etcd to (0: not yet). */
  public long lastCompactedRevision() {
    return lastCompacted.get();
  }

  @Override
  public void gained(WriteFence fence) {
    timer.start(Duration.ZERO, interval, this::tick);
  }

  @Override
  public void lost() {
    timer.stop();
    timer.execute(schedule::reset);
  }

  private void tick() {
    try {
      long current =
          kv.get(ANY_KEY, GetOption.builder().withCountOnly(true).build())
              .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
              .getHeader()
              .getRevision();
      long target = schedule.tick(current);
      if (target == 0) {
        return;
      }
      compact(target);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      LOG.warn("etcd compaction failed, retrying in {}: {}", interval, message(e));
    }
  }

  private void compact(long target) throws InterruptedException, TimeoutException {
    try {
      kv.compact(target, CompactOption.DEFAULT).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      schedule.compactedTo(target);
      lastCompacted.set(target);
      LOG.debug("compacted etcd to revision {}", target);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof CompactedException
          || String.valueOf(e.getCause().getMessage()).contains("compacted")) {
        schedule.compactedTo(target);
        return;
      }
      LOG.warn("etcd compaction to revision {} failed: {}", target, message(e));
    }
  }

  private static String message(Throwable e) {
    Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
    return String.valueOf(cause.getMessage());
  }

  @Override
  public void close() {
    lost();
    timer.close();
  }
}
