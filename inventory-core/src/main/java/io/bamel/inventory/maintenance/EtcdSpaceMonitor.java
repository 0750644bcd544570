package io.bamel.inventory.maintenance;

import io.bamel.inventory.runtime.CoreThreads;
import io.etcd.jetcd.Maintenance;
import io.etcd.jetcd.maintenance.AlarmMember;
import io.etcd.jetcd.maintenance.AlarmType;
import io.etcd.jetcd.maintenance.StatusResponse;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches etcd's space: every {@code interval} it asks each member for its database size and etcd
 * for its alarms, keeps the latest {@link EtcdSpace} for {@code /readyz} and the metrics, and logs
 * one WARN when the level worsens (and one INFO when it recovers). An etcd NOSPACE alarm thus shows
 * as a named condition rather than as random write failures. Exported gauges: {@code
 * bamel_etcd_db_size_bytes}, {@code bamel_etcd_db_size_in_use_bytes}, {@code
 * bamel_etcd_quota_bytes}, {@code bamel_etcd_alarm{type}}.
 */
public final class EtcdSpaceMonitor implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EtcdSpaceMonitor.class);

  private final Maintenance maintenance;
  private final List<String> endpoints;
  private final long quotaBytes;
  private final Duration timeout;
  private final ScheduledExecutorService timer;
  private volatile EtcdSpace space = EtcdSpace.UNKNOWN;

  /**
   * A monitor; {@link #start(Duration)} starts polling.
   *
   * @param maintenance etcd's maintenance client
   * @param endpoints the members' client URLs
   * @param quotaBytes etcd's backend quota ({@code --quota-backend-bytes}; etcd does not report it)
   * @param timeout the deadline of each etcd request
   */
  public EtcdSpaceMonitor(
      Maintenance maintenance, List<String> endpoints, long quotaBytes, Duration timeout) {
    this.maintenance = maintenance;
    this.endpoints = List.copyOf(endpoints);
    this.quotaBytes = quotaBytes;
    this.timeout = timeout;
    this.timer = Executors.newSingleThreadScheduledExecutor(CoreThreads.factory("etcd-space"));
  }

  /** Polls now and then every {@code interval}. */
  public EtcdSpaceMonitor start(Duration interval) {
    timer.scheduleWithFixedDelay(
        CoreThreads.guarded("etcd space check", LOG, this::poll),
        0,
        interval.toMillis(),
        TimeUnit.MILLISECONDS);
    return this;
  }

  /** The latest measurement ({@link EtcdSpace#UNKNOWN} before the first). */
  public EtcdSpace space() {
    return space;
  }

  /** Measures once, now; the latest measurement afterwards. */
  public EtcdSpace poll() {
    try {
      long size = 0;
      long inUse = 0;
      for (String endpoint : endpoints) {
        StatusResponse status = await(maintenance.statusMember(endpoint));
        size = Math.max(size, status.getDbSize());
        inUse = Math.max(inUse, status.getDbSizeInUse());
      }
      Set<String> alarms = new HashSet<>();
      for (AlarmMember alarm : await(maintenance.listAlarms()).getAlarms()) {
        if (alarm.getAlarmType() != AlarmType.NONE) {
          alarms.add(alarm.getAlarmType().name());
        }
      }
      record(new EtcdSpace(size, inUse, quotaBytes, alarms));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      LOG.debug("etcd space check failed", e);
    }
    return space;
  }

  private void record(EtcdSpace next) {
    EtcdSpace previous = space;
    space = next;
    if (next.level().compareTo(previous.level()) > 0) {
      LOG.warn(next.problem());
    } else if (next.level() == EtcdSpace.Level.OK && previous.level() != EtcdSpace.Level.OK) {
      LOG.info("etcd space is back to normal: database {} MiB", next.dbSizeBytes() >> 20);
    }
  }

  private <T> T await(java.util.concurrent.CompletableFuture<T> future)
      throws InterruptedException, ExecutionException, TimeoutException {
    return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Registers the gauges in {@code registry}. */
  public void register(PrometheusRegistry registry) {
    GaugeWithCallback.builder()
        .name("bamel_etcd_db_size_bytes")
        .help("The largest etcd member database file, the size the backend quota applies to.")
        .callback(c -> c.call(space.dbSizeBytes()))
        .register(registry);
    GaugeWithCallback.builder()
        .name("bamel_etcd_db_size_in_use_bytes")
        .help("Bytes of the etcd database holding live data (the rest is freed by defrag).")
        .callback(c -> c.call(space.dbSizeInUseBytes()))
        .register(registry);
    GaugeWithCallback.builder()
        .name("bamel_etcd_quota_bytes")
        .help("etcd's backend quota as configured (etcd.quotaBytes).")
        .callback(c -> c.call(space.quotaBytes()))
        .register(registry);
    GaugeWithCallback.builder()
        .name("bamel_etcd_alarm")
        .help("1 while etcd has raised this alarm (NOSPACE: every write is refused).")
        .labelNames("type")
        .callback(
            c -> {
              for (String type : List.of("NOSPACE", "CORRUPT")) {
                c.call(space.alarms().contains(type) ? 1 : 0, type);
              }
            })
        .register(registry);
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
