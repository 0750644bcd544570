package io.bamel.dcim.netbox;

import io.bamel.inventory.sync.SyncPlan;
import io.bamel.inventory.sync.SyncReport;
import java.time.Instant;
import java.util.List;

/**
 * What {@code GET /api/v1/sync/netbox/status} shows of the NetBox source.
 *
 * @param url the NetBox pulled (its root URL; no credentials)
 * @param leader whether this process runs the pull now
 * @param lastPull the last pull (this process's), or null before the first
 * @param lastCompletePull when the last complete pull finished, or null
 * @param webhooks the webhooks this process received
 * @param reportBack report-back
 */
public record NetBoxStatus(
    String url,
    boolean leader,
    Pull lastPull,
    Instant lastCompletePull,
    Webhooks webhooks,
    ReportBack reportBack) {

  /**
   * One pull.
   *
   * @param conflicts the rejected items that are identity conflicts (their reason begins with
   *     {@code identity conflict: }); they are counted in {@code rejected} too
   * @param rejections the first rejected items with their reasons (at most 20)
   */
  public record Pull(
      Instant started,
      Instant finished,
      double seconds,
      boolean dryRun,
      boolean complete,
      String paging,
      String netboxVersion,
      int devices,
      int created,
      int updated,
      int unchanged,
      int deleted,
      int rejected,
      int conflicts,
      Long revision,
      long readMillis,
      long planMillis,
      long writeMillis,
      List<String> errors,
      List<SyncReport.Entry> rejections) {

    static Pull of(PullReport r) {
      SyncReport s = r.sync();
      return new Pull(
          r.started(),
          r.finished(),
          r.duration().toMillis() / 1000.0,
          r.dryRun(),
          r.complete(),
          r.paging(),
          r.netboxVersion(),
          r.devices(),
          r.count(SyncReport::created),
          r.count(SyncReport::updated),
          r.count(SyncReport::unchanged),
          r.count(SyncReport::deleted),
          r.count(SyncReport::rejected),
          s == null
              ? 0
              : (int)
                  s.rejected().stream()
                      .filter(e -> e.reason() != null && e.reason().startsWith(SyncPlan.CONFLICT))
                      .count(),
          s == null ? null : s.revision(),
          r.readMillis(),
          r.planMillis(),
          r.writeMillis(),
          r.errors(),
          s == null ? List.of() : s.rejected().stream().limit(20).toList());
    }
  }

  /** Webhook counters since this process started, and the queue. */
  public record Webhooks(
      boolean enabled,
      long received,
      long queued,
      long applied,
      long unchanged,
      long skipped,
      long rejected,
      long failed,
      long duplicates,
      long ignored,
      long badSignatures,
      int waiting,
      String lastError) {}

  /** Report-back since this process started. */
  public record ReportBack(
      boolean enabled, long devices, long requests, Instant lastRound, String lastError) {}
}
