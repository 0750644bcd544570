package io.bamel.dcim.netbox;

import io.bamel.inventory.sync.SyncReport;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What one pull did (or, in a dry run, would do).
 *
 * @param started when it started
 * @param finished when it finished
 * @param dryRun whether nothing was written
 * @param complete whether every page was read and the counts agreed: only then were nodes pruned
 * @param paging {@code cursor} or {@code offset}
 * @param netboxVersion NetBox's {@code API-Version}, or null
 * @param devices the devices read
 * @param sync what was created, updated, left unchanged, deleted and rejected (null when nothing
 *     was planned: NetBox could not be read, or the cache was not ready)
 * @param errors what went wrong, for a person
 * @param readMillis the time spent reading NetBox (devices and interfaces)
 * @param planMillis the time spent mapping and planning
 * @param writeMillis the time spent writing to etcd (and waiting for the cache to show it)
 */
public record PullReport(
    Instant started,
    Instant finished,
    boolean dryRun,
    boolean complete,
    String paging,
    String netboxVersion,
    int devices,
    SyncReport sync,
    List<String> errors,
    long readMillis,
    long planMillis,
    long writeMillis) {

  /** Copies the errors. */
  public PullReport {
    errors = List.copyOf(errors);
  }

  /** How long it took. */
  public Duration duration() {
    return Duration.between(started, finished);
  }

  /** Whether it read NetBox completely, planned and wrote without an error. */
  public boolean ok() {
    return complete && sync != null && errors.isEmpty();
  }

  int count(java.util.function.Function<SyncReport, List<SyncReport.Entry>> kind) {
    return sync == null ? 0 : kind.apply(sync).size();
  }
}
