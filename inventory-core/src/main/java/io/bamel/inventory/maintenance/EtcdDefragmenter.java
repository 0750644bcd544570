package io.bamel.inventory.maintenance;

import io.bamel.inventory.leader.LeadershipListener;
import io.bamel.inventory.logging.FailureLog;
import io.bamel.inventory.store.WriteFence;
import io.etcd.jetcd.Maintenance;
import io.etcd.jetcd.maintenance.StatusResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Defragments etcd when it pays: while this process leads ({@code etcd-maintenance}), every {@code
 * checkInterval} it reads each member's database size and in-use size, asks the {@link DefragRule}
 * which member (if any) is due, and defragments that one member, logging an INFO with the sizes
 * before and after. A member answers nothing while it defragments (about a second per 100 MB), so
 * one member at a time, at most one every {@link DefragRule#minInterval()}. A member due but above
 * {@link DefragRule#maxDbSizeBytes()} is left alone with a WARN naming it, its sizes and the
 * command that defragments it (repeated while it stays due, an INFO once it is not). A failure is
 * logged and retried at the next check. Register it as a {@link LeadershipListener}; {@link
 * #close()} stops it.
 */
public final class EtcdDefragmenter implements LeadershipListener, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EtcdDefragmenter.class);

  /** The longest a defragmentation is waited for (a member of a few GB takes tens of seconds). */
  private static final Duration DEFRAG_TIMEOUT = Duration.ofMinutes(5);

  private final Maintenance maintenance;
  private final List<String> endpoints;
  private final DefragRule rule;
  private final Duration checkInterval;
  private final Duration timeout;
  private final Clock clock;
  private final LeaderTimer timer;
  private final AtomicInteger defragmentations = new AtomicInteger();
  private final FailureLog leftToOperator;
  private DefragRule.History history = DefragRule.History.NONE; // the timer thread's

  /**
   * A defragmenter.
   *
   * @param maintenance etcd's maintenance client
   * @param endpoints the members' client URLs
   * @param rule when a member is due
   * @param checkInterval the time between checks (positive)
   * @param timeout the deadline of each status request
   * @param clock the clock of the rule's interval
   */
  public EtcdDefragmenter(
      Maintenance maintenance,
      List<String> endpoints,
      DefragRule rule,
      Duration checkInterval,
      Duration timeout,
      Clock clock) {
    if (!checkInterval.isPositive()) {
      throw new IllegalArgumentException("defragmentation check interval must be positive");
    }
    this.maintenance = maintenance;
    this.endpoints = List.copyOf(endpoints);
    this.rule = rule;
    this.checkInterval = checkInterval;
    this.timeout = timeout;
    this.clock = clock;
    this.timer = new LeaderTimer("etcd-defragmenter", "etcd defragmentation", LOG);
    this.leftToOperator = new FailureLog(LOG, "member", "automatic etcd defragmentation", clock);
  }

  /** How many defragmentations this process made. */
  public int defragmentations() {
    return defragmentations.get();
  }

  @Override
  public void gained(WriteFence fence) {
    timer.start(checkInterval, checkInterval, this::check);
  }

  @Override
  public void lost() {
    timer.stop();
  }

  private void check() {
    try {
      List<DefragRule.Member> members = new ArrayList<>();
      for (String endpoint : endpoints) {
        members.add(measure(endpoint));
      }
      history = history.seen(members);
      reportTooLarge(members);
      Optional<DefragRule.Member> next = rule.next(members, history, clock.instant());
      if (next.isEmpty()) {
        return;
      }
      DefragRule.Member before = next.get();
      long start = System.nanoTime();
      maintenance
          .defragmentMember(before.endpoint())
          .get(DEFRAG_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      long millis = (System.nanoTime() - start) / 1_000_000;
      DefragRule.Member after = measure(before.endpoint());
      history = DefragRule.defragmented(history, after, clock.instant());
      defragmentations.incrementAndGet();
      LOG.info(
          "defragmented etcd member {} in {} ms: database {} MiB -> {} MiB, in use {} MiB -> {}"
              + " MiB",
          before.endpoint(),
          millis,
          before.dbSizeBytes() >> 20,
          after.dbSizeBytes() >> 20,
          before.dbSizeInUseBytes() >> 20,
          after.dbSizeInUseBytes() >> 20);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
      LOG.warn("etcd defragmentation failed, checking again in {}: {}", checkInterval, cause);
    }
  }

  private void reportTooLarge(List<DefragRule.Member> members) {
    List<DefragRule.Member> tooLarge = rule.dueButTooLarge(members, history);
    for (DefragRule.Member m : members) {
      if (tooLarge.contains(m)) {
        leftToOperator.failed(
            m.endpoint(),
            "TOO_LARGE",
            String.format(
                "database %d MiB (in use %d MiB) is due for defragmentation but above"
                    + " storage.defrag.maxDbSizeBytes (%d MiB): it would answer nothing for"
                    + " seconds; run `bamel etcd defrag` in a quiet hour",
                m.dbSizeBytes() >> 20, m.dbSizeInUseBytes() >> 20, rule.maxDbSizeBytes() >> 20));
      } else {
        leftToOperator.recovered(m.endpoint());
      }
    }
  }

  private DefragRule.Member measure(String endpoint)
      throws InterruptedException, ExecutionException, TimeoutException {
    StatusResponse s =
        maintenance.statusMember(endpoint).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    return new DefragRule.Member(endpoint, s.getDbSize(), s.getDbSizeInUse());
  }

  @Override
  public void close() {
    timer.close();
  }
}
