package io.bamel.dcim.netbox;

import io.bamel.inventory.sync.SyncReport;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.function.IntSupplier;

/**
 * The NetBox source's metrics, registered once on the registry passed in:
 *
 * <ul>
 *   <li>{@code bamel_netbox_pulls_total{result}}: pulls by result: {@code complete} (every page
 *       read, written without error), {@code incomplete} (not every page read, or errors: nothing
 *       pruned), {@code failed} (nothing planned: NetBox or etcd unreachable, leadership lost);
 *   <li>{@code bamel_netbox_last_pull_timestamp_seconds}, {@code
 *       bamel_netbox_last_complete_pull_timestamp_seconds}: when the last pull, and the last
 *       complete one, finished (alert on the age of the second);
 *   <li>{@code bamel_netbox_last_pull_duration_seconds}: how long the last pull took;
 *   <li>{@code bamel_netbox_last_pull_devices}: devices the last pull read;
 *   <li>{@code bamel_netbox_last_pull_nodes{change}}: nodes the last pull {@code created}, {@code
 *       updated}, left {@code unchanged}, {@code deleted}, {@code rejected};
 *   <li>{@code bamel_netbox_webhooks_total{result}}: webhooks by result: {@code queued}, {@code
 *       duplicate}, {@code ignored} (another model), {@code bad_signature}, {@code invalid}, {@code
 *       queue_full} on receipt, then {@code applied}, {@code unchanged}, {@code skipped}, {@code
 *       rejected}, {@code failed} when applied;
 *   <li>{@code bamel_netbox_webhook_queue}: events waiting to be applied;
 *   <li>{@code bamel_netbox_reportback_requests_total{result}}: bulk PATCHes, {@code ok} or {@code
 *       failed}; {@code bamel_netbox_reportback_devices_total}: devices whose values were written.
 * </ul>
 *
 * Thread-safe.
 */
final class NetBoxMetrics {

  private final Counter pulls;
  private final Gauge lastPull;
  private final Gauge lastComplete;
  private final Gauge duration;
  private final Gauge devices;
  private final Gauge nodes;
  private final Counter webhooks;
  private final Counter reportRequests;
  private final Counter reportDevices;

  NetBoxMetrics(PrometheusRegistry registry, IntSupplier queueLength) {
    pulls =
        Counter.builder()
            .name("bamel_netbox_pulls_total")
            .help("NetBox pulls by result (complete, incomplete, failed).")
            .labelNames("result")
            .register(registry);
    lastPull =
        Gauge.builder()
            .name("bamel_netbox_last_pull_timestamp_seconds")
            .help("When the last NetBox pull finished.")
            .register(registry);
    lastComplete =
        Gauge.builder()
            .name("bamel_netbox_last_complete_pull_timestamp_seconds")
            .help("When the last complete NetBox pull (every page read, no error) finished.")
            .register(registry);
    duration =
        Gauge.builder()
            .name("bamel_netbox_last_pull_duration_seconds")
            .help("How long the last NetBox pull took.")
            .register(registry);
    devices =
        Gauge.builder()
            .name("bamel_netbox_last_pull_devices")
            .help("Devices the last NetBox pull read.")
            .register(registry);
    nodes =
        Gauge.builder()
            .name("bamel_netbox_last_pull_nodes")
            .help("Nodes the last NetBox pull created, updated, left unchanged, deleted, rejected.")
            .labelNames("change")
            .register(registry);
    webhooks =
        Counter.builder()
            .name("bamel_netbox_webhooks_total")
            .help("NetBox webhooks by result.")
            .labelNames("result")
            .register(registry);
    GaugeWithCallback.builder()
        .name("bamel_netbox_webhook_queue")
        .help("NetBox webhook events waiting to be applied.")
        .callback(cb -> cb.call(queueLength.getAsInt()))
        .register(registry);
    reportRequests =
        Counter.builder()
            .name("bamel_netbox_reportback_requests_total")
            .help("Report-back bulk PATCH requests to NetBox by result (ok, failed).")
            .labelNames("result")
            .register(registry);
    reportDevices =
        Counter.builder()
            .name("bamel_netbox_reportback_devices_total")
            .help("NetBox devices whose bamel_power and bamel_state report-back wrote.")
            .register(registry);
  }

  void pull(PullReport r) {
    String result = r.sync() == null ? "failed" : r.ok() ? "complete" : "incomplete";
    pulls.labelValues(result).inc();
    double finished = r.finished().toEpochMilli() / 1000.0;
    lastPull.set(finished);
    if (r.ok()) {
      lastComplete.set(finished);
    }
    duration.set(r.duration().toMillis() / 1000.0);
    devices.set(r.devices());
    SyncReport s = r.sync();
    nodes.labelValues("created").set(s == null ? 0 : s.created().size());
    nodes.labelValues("updated").set(s == null ? 0 : s.updated().size());
    nodes.labelValues("unchanged").set(s == null ? 0 : s.unchanged().size());
    nodes.labelValues("deleted").set(s == null ? 0 : s.deleted().size());
    nodes.labelValues("rejected").set(s == null ? 0 : s.rejected().size());
  }

  void pullFailed() {
    pulls.labelValues("failed").inc();
  }

  void webhook(String result) {
    webhooks.labelValues(result).inc();
  }

  void reportBack(ReportBackSender.Round round) {
    int failed = round.error() == null ? 0 : 1;
    if (round.requests() - failed > 0) {
      reportRequests.labelValues("ok").inc(round.requests() - failed);
    }
    if (failed > 0) {
      reportRequests.labelValues("failed").inc();
    }
    if (round.devices() > 0) {
      reportDevices.inc(round.devices());
    }
  }
}
