package io.bamel.dcim.netbox;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.sync.SyncConflicts;
import io.bamel.inventory.sync.SyncExecutor;
import io.bamel.inventory.sync.SyncItem;
import io.bamel.inventory.sync.SyncPlan;
import io.bamel.inventory.sync.SyncPlanner;
import io.bamel.inventory.sync.SyncReport;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Applies one queued webhook as a sync of one device, through the same planner and executor as the
 * pull (and so under the same scope rule):
 *
 * <ul>
 *   <li>a device {@code created} or {@code updated}: its data, with the boot MAC of its interfaces
 *       when NetBox can be asked (else bamel's stays), applied only when its {@code last_updated}
 *       is newer than the node's {@code netbox-last-updated} ({@link
 *       NetBoxDevices.Freshness#NEWER_ONLY}): a replayed or late event changes nothing. A device
 *       that no longer passes the filters is treated as deleted;
 *   <li>a device {@code deleted}: its node is deleted when {@code prune} is on and the node is off
 *       (else left, and reported);
 *   <li>an interface or MAC address changed: the device is read again from NetBox and applied as
 *       the pull would (its MAC may have changed; the device's own {@code last_updated} did not).
 * </ul>
 *
 * The identity rule is the pull's ({@link io.bamel.inventory.sync.IdentityRule}): an event for
 * device {@code <id>} changes only the node whose {@code inventoryId} is {@code netbox:<id>}, or
 * adopts one without an {@code inventoryId}; it never changes a node of another device (a device
 * named like another's node gets {@code netbox-<id>}; one whose serial, MAC or address another
 * device's node holds is rejected as an identity conflict, with an event on that node).
 *
 * <p>Writes are not fenced (any replica may receive a webhook; every write is guarded by the
 * revision it was planned from, as an API write is).
 */
final class WebhookApplier {

  /** What applying an event came to: a metrics result and, for a person, why. */
  record Applied(String result, String detail) {}

  private final NetBoxSettings settings;
  private final NetBoxClient client;
  private final EtcdInventory store;
  private final InventoryCache cache;
  private final WebhookLedger ledger;
  private final SyncExecutor executor;

  WebhookApplier(
      NetBoxSettings settings,
      NetBoxClient client,
      EtcdInventory store,
      InventoryCache cache,
      WebhookLedger ledger,
      Clock clock,
      SyncConflicts conflicts) {
    this.settings = settings;
    this.client = client;
    this.store = store;
    this.cache = cache;
    this.ledger = ledger;
    this.executor =
        new SyncExecutor(store, cache, clock, Duration.ofSeconds(10), conflicts, "netbox-webhook");
  }

  Applied apply(WebhookEvent e) throws InterruptedException {
    if (e.deviceId() <= 0) {
      return new Applied("skipped", "the " + e.model() + " belongs to no device");
    }
    if (!e.model().equals("device")) {
      JsonNode device;
      try {
        device = client.get("/api/dcim/devices/" + e.deviceId() + "/").body();
      } catch (NetBoxException x) {
        return new Applied(
            "failed", "device " + e.deviceId() + " could not be read again: " + x.getMessage());
      }
      return upsert(device, NetBoxDevices.Freshness.SAME_OR_NEWER, e);
    }
    if (e.event().equals("deleted")) {
      ledger.markDeleted(e.deviceId());
      return delete(e.deviceId(), e);
    }
    if (ledger.wasDeleted(e.deviceId())) {
      return new Applied("skipped", "device " + e.deviceId() + " was deleted in NetBox");
    }
    return upsert(e.data(), NetBoxDevices.Freshness.NEWER_ONLY, e);
  }

  private Applied upsert(JsonNode device, NetBoxDevices.Freshness freshness, WebhookEvent e)
      throws InterruptedException {
    long id = device.path("id").asLong(0);
    if (!settings.filters().matches(device)) {
      return delete(id, e);
    }
    NetBoxDevices.BootMac mac = NetBoxDevices.BootMac.UNKNOWN;
    try {
      Map<Long, List<JsonNode>> interfaces = DevicePull.interfacesOf(client, List.of(id));
      mac = NetBoxDevices.BootMac.of(BootMacs.choose(interfaces.get(id)));
    } catch (NetBoxException x) {
      // The MAC stays as bamel has it; the next pull reads it.
    }
    SyncItem item =
        NetBoxDevices.item(
            0, device, new NetBoxDevices.Options(settings.macCustomField(), mac, freshness));
    return outcome(run(List.of(item), false, id, e), id);
  }

  private Applied delete(long id, WebhookEvent e) throws InterruptedException {
    if (!settings.prune()) {
      return new Applied("skipped", "device " + id + " left NetBox (or the filters); prune is off");
    }
    return outcome(run(List.of(), true, id, e), id);
  }

  private SyncReport run(List<SyncItem> items, boolean prune, long id, WebhookEvent e)
      throws InterruptedException {
    if (!cache.awaitSynced(Duration.ofSeconds(30))) {
      throw new IllegalStateException("the inventory cache is not synced with etcd");
    }
    cache.awaitRevision(store.currentRevision(), Duration.ofSeconds(10));
    long revision = cache.revision();
    String inventoryId = NetBoxDevices.inventoryId(id);
    SyncPlan plan =
        SyncPlanner.plan(
            items,
            SyncPlanner.Current.of(cache),
            n -> inventoryId.equals(n.spec().inventoryId()),
            prune,
            settings.syncRules());
    String requestId = e.requestId() == null ? null : "netbox-" + safe(e.requestId());
    return executor.execute(plan, NetBoxSettings.PRINCIPAL, requestId, revision, null);
  }

  private static String safe(String requestId) {
    String s = requestId.replaceAll("[^A-Za-z0-9._:-]", "-");
    return s.length() > 100 ? s.substring(0, 100) : s;
  }

  private static Applied outcome(SyncReport r, long id) {
    if (!r.rejected().isEmpty()) {
      return new Applied("rejected", "device " + id + ": " + r.rejected().get(0).reason());
    }
    if (!r.created().isEmpty() || !r.updated().isEmpty() || !r.deleted().isEmpty()) {
      String what =
          !r.created().isEmpty() ? "created" : !r.updated().isEmpty() ? "updated" : "deleted";
      return new Applied("applied", "device " + id + ": node " + what);
    }
    return new Applied("unchanged", "device " + id + ": nothing to change");
  }
}
