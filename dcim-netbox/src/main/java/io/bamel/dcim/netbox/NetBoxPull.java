package io.bamel.dcim.netbox;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.FencedException;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.store.InventoryException;
import io.bamel.inventory.store.WriteFence;
import io.bamel.inventory.sync.SyncConflicts;
import io.bamel.inventory.sync.SyncExecutor;
import io.bamel.inventory.sync.SyncItem;
import io.bamel.inventory.sync.SyncPlan;
import io.bamel.inventory.sync.SyncPlanner;
import io.bamel.inventory.sync.SyncReport;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * One pull of NetBox into the inventory: read every device and its interfaces ({@link DevicePull}),
 * map each device ({@link NetBoxDevices}, the boot MAC from {@link BootMacs}), plan against the
 * cache as the DCIM sync does ({@link SyncPlanner}, with the source's scope: without {@code bmc},
 * an item changing a power-control field such as the OOB IP is rejected), and write the plan
 * ({@link SyncExecutor}) fenced by the leadership of {@code netbox-sync}; a dry run writes nothing
 * and reports exactly what would be written.
 *
 * <p>Pruning: only nodes that came from NetBox ({@code inventoryId} {@code netbox:<id>}) are in its
 * scope, only when {@link NetBoxSettings#prune()} is on and only after a complete listing; each
 * prune is confirmed with NetBox first ({@link PruneCheck}), and a node that is on is never pruned.
 * An incomplete pull still creates and updates what it read. Unchanged devices write nothing.
 *
 * <p>Identity ({@link io.bamel.inventory.sync.IdentityRule}): a node whose {@code inventoryId} is
 * {@code netbox:<id>} is device {@code <id>}'s; a device no node belongs to only adopts a node
 * without an {@code inventoryId}; where two devices want one node id, the lower NetBox id gets it
 * and the other its {@code netbox-<id>}. The outcome depends on the set of devices read, never on
 * NetBox's order (name order up to 4.5, id order with 4.6's cursor paging). A device that collides
 * (a serial, MAC or address another device keeps) is reported as an identity conflict.
 */
public final class NetBoxPull {

  private static final Predicate<Node> FROM_NETBOX =
      n -> NetBoxDevices.deviceId(n.spec().inventoryId()) > 0;

  private final NetBoxSettings settings;
  private final NetBoxClient client;
  private final EtcdInventory store;
  private final InventoryCache cache;
  private final Clock clock;
  private final SyncExecutor executor;
  private volatile List<JsonNode> lastDevices = List.of();

  /** A pull of {@code client}'s NetBox into {@code store}, planned against {@code cache}. */
  public NetBoxPull(
      NetBoxSettings settings,
      NetBoxClient client,
      EtcdInventory store,
      InventoryCache cache,
      Clock clock) {
    this(settings, client, store, cache, clock, null);
  }

  /**
   * A pull of {@code client}'s NetBox into {@code store}, planned against {@code cache}, counting
   * identity conflicts in {@code conflicts} (null: uncounted) as {@code netbox-pull}.
   */
  public NetBoxPull(
      NetBoxSettings settings,
      NetBoxClient client,
      EtcdInventory store,
      InventoryCache cache,
      Clock clock,
      SyncConflicts conflicts) {
    this.settings = settings;
    this.client = client;
    this.store = store;
    this.cache = cache;
    this.clock = clock;
    this.executor =
        new SyncExecutor(store, cache, clock, Duration.ofSeconds(10), conflicts, "netbox-pull");
  }

  /**
   * Pulls once.
   *
   * @param dryRun plan and report only
   * @param fence the leadership the writes require (null: none, for a dry run)
   * @throws FencedException when the leadership was lost while writing
   */
  public PullReport run(boolean dryRun, WriteFence fence) {
    Instant started = clock.instant();
    long t0 = System.nanoTime();
    DevicePull.Result read = DevicePull.run(client, settings.filters(), settings.pageSize());
    lastDevices = read.devices();
    long[] t = {System.nanoTime(), 0};
    List<String> errors = new ArrayList<>(read.errors());
    List<SyncItem> items = items(read, settings.macCustomField());
    SyncReport report = null;
    if (!read.devices().isEmpty() || read.complete()) {
      try {
        report = plan(items, read, dryRun, fence, started, t);
      } catch (FencedException e) {
        throw e;
      } catch (InventoryException e) {
        errors.add("etcd: " + e.getMessage());
      }
    }
    if (report == null && errors.isEmpty()) {
      errors.add("the inventory cache is not synced with etcd; nothing was planned");
    }
    return new PullReport(
        started,
        clock.instant(),
        dryRun,
        read.complete(),
        read.paging(),
        read.apiVersion(),
        read.devices().size(),
        report,
        errors,
        (t[0] - t0) / 1_000_000,
        t[1] == 0 ? (System.nanoTime() - t[0]) / 1_000_000 : (t[1] - t[0]) / 1_000_000,
        t[1] == 0 ? 0 : (System.nanoTime() - t[1]) / 1_000_000);
  }

  /** The devices the last pull read (for report-back: their custom fields as NetBox has them). */
  List<JsonNode> lastDevices() {
    return lastDevices;
  }

  /** Plans and writes; {@code times[1]} gets the moment planning ended. */
  private SyncReport plan(
      List<SyncItem> items,
      DevicePull.Result read,
      boolean dryRun,
      WriteFence fence,
      Instant t,
      long[] times) {
    if (!cache.synced()) {
      return null;
    }
    try {
      cache.awaitRevision(store.currentRevision(), Duration.ofSeconds(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
    long revision = cache.revision();
    SyncPlanner.Rules rules = settings.syncRules();
    SyncPlan plan =
        SyncPlanner.plan(
            items,
            SyncPlanner.Current.of(cache),
            FROM_NETBOX,
            settings.prune() && read.complete(),
            rules);
    plan = PruneCheck.confirm(plan, read.devices().size(), client, settings.filters());
    times[1] = System.nanoTime();
    if (dryRun) {
      return SyncExecutor.report(plan, revision, true);
    }
    return executor.execute(
        plan, NetBoxSettings.PRINCIPAL, "netbox-pull-" + t.toEpochMilli(), revision, fence);
  }

  /** The sync items of a pull: each device with the boot MAC of its interfaces, when read. */
  static List<SyncItem> items(DevicePull.Result read, String macCustomField) {
    List<SyncItem> items = new ArrayList<>(read.devices().size());
    int index = 0;
    for (JsonNode device : read.devices()) {
      List<JsonNode> interfaces = read.interfaces().get(device.path("id").asLong(0));
      NetBoxDevices.BootMac mac =
          interfaces == null
              ? NetBoxDevices.BootMac.UNKNOWN
              : NetBoxDevices.BootMac.of(BootMacs.choose(interfaces));
      items.add(
          NetBoxDevices.item(
              index++,
              device,
              new NetBoxDevices.Options(
                  macCustomField, mac, NetBoxDevices.Freshness.SAME_OR_NEWER)));
    }
    return items;
  }
}
