package io.bamel.dcim.netbox;

import io.bamel.inventory.leader.LeaderElection;
import io.bamel.inventory.leader.LeadershipListener;
import io.bamel.inventory.runtime.CoreThreads;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.FencedException;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.store.WriteFence;
import io.bamel.inventory.sync.SyncConflicts;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * NetBox as a DCIM source of one server process:
 *
 * <ul>
 *   <li>the pull ({@link NetBoxPull}) every {@link NetBoxSettings#interval()}, and at once when
 *       this process becomes leader of {@value #COMPONENT}, only while it leads; its writes are
 *       fenced by that leadership;
 *   <li>report-back ({@link ReportBackSender}), when on, after each pull and every {@link
 *       NetBoxSettings.ReportBack#interval()}, on the pull's thread, only while leading;
 *   <li>webhooks ({@link #webhook}), on every process that serves the API: the signature is
 *       checked, the event queued and the call returns; one worker applies the queue in order
 *       ({@link WebhookApplier});
 *   <li>the status ({@link #status()}) and metrics ({@link NetBoxMetrics}).
 * </ul>
 *
 * The pull and report-back never overlap (one thread). {@link #close()} stops both threads; events
 * still queued are dropped (NetBox's next change, or the next pull, brings them back).
 */
public final class NetBoxSource implements NetBoxEndpoints, AutoCloseable {

  /** The election whose leader pulls NetBox and reports back. */
  public static final String COMPONENT = "netbox-sync";

  private static final Logger LOG = LoggerFactory.getLogger(NetBoxSource.class);

  private final NetBoxSettings settings;
  private final NetBoxClient client;
  private final InventoryCache cache;
  private final LeaderElection election;
  private final Clock clock;
  private final NetBoxPull pull;
  private final ReportBackSender reportBack;
  private final WebhookLedger ledger = new WebhookLedger(10_000);
  private final WebhookApplier applier;
  private final BlockingQueue<WebhookEvent> queue;
  private final NetBoxMetrics metrics;
  private final ScheduledExecutorService loop;
  private final Thread worker;
  private final Map<String, LongAdder> webhookCounts = new ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.AtomicReference<WriteFence> term =
      new java.util.concurrent.atomic.AtomicReference<>();
  private final LongAdder accepted = new LongAdder();
  private final LongAdder done = new LongAdder();

  private volatile PullReport lastPull;
  private volatile Instant lastCompletePull;
  private volatile String lastWebhookError;
  private volatile boolean started;
  private volatile boolean closed;
  private final LongAdder reportedDevices = new LongAdder();
  private final LongAdder reportRequests = new LongAdder();
  private volatile Instant lastReport;
  private volatile String lastReportError;

  /**
   * A source; nothing runs until {@link #start()}.
   *
   * @param election the election of {@value #COMPONENT} (null: this process only takes webhooks)
   */
  public NetBoxSource(
      NetBoxSettings settings,
      NetBoxClient client,
      EtcdInventory store,
      InventoryCache cache,
      LeaderElection election,
      PrometheusRegistry registry,
      Clock clock) {
    this.settings = settings;
    this.client = client;
    this.cache = cache;
    this.election = election;
    this.clock = clock;
    SyncConflicts conflicts = SyncConflicts.on(registry);
    this.pull = new NetBoxPull(settings, client, store, cache, clock, conflicts);
    this.reportBack = new ReportBackSender(settings.reportBack(), client, clock);
    this.applier = new WebhookApplier(settings, client, store, cache, ledger, clock, conflicts);
    this.queue = new ArrayBlockingQueue<>(Math.max(1, settings.webhookQueue()));
    this.metrics = new NetBoxMetrics(registry, queue::size);
    this.loop = Executors.newSingleThreadScheduledExecutor(CoreThreads.factory("netbox-pull"));
    this.worker = new Thread(this::work, "netbox-webhooks");
    this.worker.setDaemon(true);
  }

  /** Starts the webhook worker and, with an election, the pull and report-back loops. */
  public synchronized NetBoxSource start() {
    if (started) {
      return this;
    }
    started = true;
    worker.start();
    if (election == null) {
      return this;
    }
    election.addListener(
        new LeadershipListener() {
          @Override
          public void gained(WriteFence fence) {
            // One pull per term, even when the election reports the term twice.
            if (!fence.equals(term.getAndSet(fence))) {
              loop.execute(CoreThreads.guarded("netbox pull", LOG, NetBoxSource.this::cycle));
            }
          }

          @Override
          public void lost() {
            // The next cycle sees no fence and does nothing.
          }
        });
    long every = settings.interval().toMillis();
    loop.scheduleWithFixedDelay(
        CoreThreads.guarded("netbox pull", LOG, this::cycle), every, every, TimeUnit.MILLISECONDS);
    if (settings.reportBack().enabled()) {
      long rb = settings.reportBack().interval().toMillis();
      loop.scheduleWithFixedDelay(
          CoreThreads.guarded("netbox report-back", LOG, this::reportCycle),
          rb,
          rb,
          TimeUnit.MILLISECONDS);
    }
    return this;
  }

  /** One pull (and report-back) if this process leads; the report, or null when it does not. */
  public PullReport cycle() {
    WriteFence fence = election == null ? null : election.fence().orElse(null);
    if (fence == null || closed) {
      return null;
    }
    PullReport report;
    try {
      report = pull.run(false, fence);
    } catch (FencedException e) {
      LOG.warn("netbox pull stopped: {}", e.getMessage());
      metrics.pullFailed();
      return null;
    }
    record(report);
    if (settings.reportBack().enabled() && report.devices() > 0) {
      reportBack.learn(pull.lastDevices());
      reportCycle();
    }
    return report;
  }

  /** One report-back round if this process leads (tests, and the loop). */
  public void reportCycle() {
    if (!settings.reportBack().enabled()
        || election == null
        || election.fence().isEmpty()
        || !cache.synced()) {
      return;
    }
    ReportBackSender.Round round = reportBack.report(cache.nodes());
    metrics.reportBack(round);
    reportedDevices.add(round.devices());
    reportRequests.add(round.requests());
    lastReport = clock.instant();
    lastReportError = round.error();
    if (round.error() != null) {
      LOG.warn("netbox report-back: {}", round.error());
    } else if (round.devices() > 0) {
      LOG.info("netbox report-back: {} devices in {} requests", round.devices(), round.requests());
    }
  }

  /** A pull that writes nothing: the plan (the {@code bamel sync netbox --dry-run} command). */
  public PullReport dryRun() {
    return pull.run(true, null);
  }

  /** A pull fenced by {@code fence} (the {@code bamel sync netbox --once} command). */
  public PullReport pullOnce(WriteFence fence) {
    PullReport r = pull.run(false, fence);
    record(r);
    return r;
  }

  private void record(PullReport r) {
    lastPull = r;
    metrics.pull(r);
    if (r.ok()) {
      lastCompletePull = r.finished();
    }
    String counts =
        r.sync() == null
            ? "nothing planned"
            : String.format(
                "%d created, %d updated, %d unchanged, %d deleted, %d rejected",
                r.sync().created().size(),
                r.sync().updated().size(),
                r.sync().unchanged().size(),
                r.sync().deleted().size(),
                r.sync().rejected().size());
    if (r.errors().isEmpty()) {
      LOG.info(
          "netbox pull{}: {} devices ({} paging) in {} ms (read {} ms, plan {} ms, write {} ms),"
              + " {}",
          r.dryRun() ? " (dry run)" : "",
          r.devices(),
          r.paging(),
          r.duration().toMillis(),
          r.readMillis(),
          r.planMillis(),
          r.writeMillis(),
          counts);
    } else {
      LOG.warn(
          "netbox pull{}: {} devices, {}{}; {}",
          r.dryRun() ? " (dry run)" : "",
          r.devices(),
          counts,
          r.complete() ? "" : ", incomplete: nothing pruned",
          String.join("; ", r.errors()));
    }
  }

  @Override
  public Object webhook(byte[] body, String signature) {
    if (settings.webhookSecret() == null) {
      throw new WebhookRefusedException(
          WebhookRefusedException.Reason.OFF,
          "NetBox webhooks are off on this server: set netbox.webhookSecretFile to the webhook's"
              + " secret");
    }
    count("received");
    if (!WebhookSignature.verify(settings.webhookSecret(), body, signature)) {
      count("badSignatures");
      metrics.webhook("bad_signature");
      throw new WebhookRefusedException(
          WebhookRefusedException.Reason.BAD_SIGNATURE,
          signature == null
              ? "X-Hook-Signature is missing: give the NetBox webhook a secret (the one in"
                  + " netbox.webhookSecretFile)"
              : "X-Hook-Signature does not match the body: the webhook's secret must be the one"
                  + " in netbox.webhookSecretFile");
    }
    WebhookEvent event;
    try {
      event = WebhookEvent.parse(body);
    } catch (IllegalArgumentException e) {
      metrics.webhook("invalid");
      throw new WebhookRefusedException(
          WebhookRefusedException.Reason.INVALID, "not a NetBox webhook: " + e.getMessage());
    }
    if (!event.model().equals("device")
        && !event.model().equals("interface")
        && !event.model().equals("macaddress")) {
      count("ignored");
      metrics.webhook("ignored");
      return Map.of(
          "queued",
          false,
          "reason",
          "bamel follows devices, interfaces and MAC addresses, not " + event.model());
    }
    if (!ledger.firstTime(event)) {
      count("duplicates");
      metrics.webhook("duplicate");
      return Map.of("queued", false, "reason", "received already (same request, object, event)");
    }
    accepted.increment();
    if (!queue.offer(event)) {
      accepted.decrement();
      ledger.forget(event);
      metrics.webhook("queue_full");
      throw new WebhookRefusedException(
          WebhookRefusedException.Reason.QUEUE_FULL,
          "the NetBox webhook queue is full; NetBox will send it again");
    }
    count("queued");
    metrics.webhook("queued");
    return Map.of("queued", true);
  }

  private void work() {
    while (!closed) {
      WebhookEvent e;
      try {
        e = queue.poll(1, TimeUnit.SECONDS);
        if (e == null) {
          continue;
        }
      } catch (InterruptedException x) {
        return;
      }
      try {
        WebhookApplier.Applied o = applier.apply(e);
        count(o.result().equals("skipped") ? "skipped" : o.result());
        metrics.webhook(o.result());
        if (o.result().equals("rejected") || o.result().equals("failed")) {
          lastWebhookError = o.detail();
          LOG.warn("netbox webhook {} {} {}: {}", e.event(), e.model(), e.objectId(), o.detail());
        } else {
          LOG.debug("netbox webhook {} {} {}: {}", e.event(), e.model(), e.objectId(), o.detail());
        }
      } catch (InterruptedException x) {
        return;
      } catch (RuntimeException x) {
        count("failed");
        metrics.webhook("failed");
        lastWebhookError = "device " + e.deviceId() + ": " + x.getMessage();
        LOG.warn(
            "netbox webhook {} {} {} failed: {}", e.event(), e.model(), e.objectId(), x.toString());
      } finally {
        done.increment();
      }
    }
  }

  private void count(String what) {
    webhookCounts.computeIfAbsent(what, k -> new LongAdder()).increment();
  }

  private long counted(String what) {
    LongAdder a = webhookCounts.get(what);
    return a == null ? 0 : a.sum();
  }

  @Override
  public NetBoxStatus status() {
    PullReport p = lastPull;
    return new NetBoxStatus(
        client.base().toString(),
        election != null && election.fence().isPresent(),
        p == null ? null : NetBoxStatus.Pull.of(p),
        lastCompletePull,
        new NetBoxStatus.Webhooks(
            settings.webhookSecret() != null,
            counted("received"),
            counted("queued"),
            counted("applied"),
            counted("unchanged"),
            counted("skipped"),
            counted("rejected"),
            counted("failed"),
            counted("duplicates"),
            counted("ignored"),
            counted("badSignatures"),
            queue.size(),
            lastWebhookError),
        new NetBoxStatus.ReportBack(
            settings.reportBack().enabled(),
            reportedDevices.sum(),
            reportRequests.sum(),
            lastReport,
            lastReportError));
  }

  /** Whether the webhook queue is empty and its worker idle (tests). */
  public boolean idle() {
    return accepted.sum() == done.sum();
  }

  @Override
  public void close() {
    closed = true;
    loop.shutdownNow();
    worker.interrupt();
    try {
      loop.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
