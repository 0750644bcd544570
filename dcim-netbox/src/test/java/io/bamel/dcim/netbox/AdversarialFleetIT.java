package io.bamel.dcim.netbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.sync.SyncConflicts;
import io.bamel.inventory.sync.SyncExecutor;
import io.bamel.inventory.sync.SyncItem;
import io.bamel.inventory.sync.SyncPlan;
import io.bamel.inventory.sync.SyncPlanner;
import io.bamel.inventory.sync.SyncReport;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ten thousand NetBox-shaped devices with the adversarial mix ({@link AdversarialFleet}) through
 * every sync path into a real etcd: a pull in name order (offset paging), a pull in id order
 * (cursor paging), webhooks late, replayed and out of order (renames, moves, deletes and re-creates
 * under the same name), the native sync (stale NetBox records, and records of another DCIM naming
 * existing nodes), and a final pull of the changed fleet. After every step: no node changed its
 * inventoryId; after the pulls, every device has exactly one node, but the higher id of each pair
 * the generator made collide, which has none and is counted as a conflict; a webhook changes no
 * node but its device's.
 */
class AdversarialFleetIT extends NetBoxTests {

  private static final Logger LOG = LoggerFactory.getLogger(AdversarialFleetIT.class);

  private static final int DEVICES = 10_000;
  private static final int WEBHOOK_DEVICES = 80;

  /**
   * How long the cache may take to show what was written to etcd: thousands of writes behind on a
   * loaded machine, far more than the 10 s a pull or sync waits for its own writes.
   */
  private static final Duration CATCH_UP = Duration.ofMinutes(2);

  /** Every node id seen, with the inventoryId it had: it may never change while the node lives. */
  private final Map<String, String> everOwner = new HashMap<>();

  private FakeNetBox serving(
      FakeNetBox.Version version, List<ObjectNode> devices, AdversarialFleet fleet) {
    FakeNetBox nb = startNetBox(version);
    nb.bootMacs.putAll(fleet.netbox.bootMacs);
    nb.serve(devices, 1000);
    return nb;
  }

  private PullReport pull(FakeNetBox nb) throws InterruptedException {
    caughtUp(); // the pull plans against the cache: the previous step's writes must be in it
    return inventory.pull(Inventory.settings(nb));
  }

  /** Waits until the cache shows every write made so far; fails if it does not within CATCH_UP. */
  private void caughtUp() throws InterruptedException {
    long revision = inventory.store.currentRevision();
    assertThat(inventory.cache.awaitRevision(revision, CATCH_UP))
        .as("the cache shows revision %d", revision)
        .isTrue();
  }

  /** The nodes now, checking that none changed its inventoryId since it was first seen. */
  private Map<String, Node> observe() throws InterruptedException {
    caughtUp();
    Map<String, Node> nodes = inventory.nodes();
    everOwner.keySet().retainAll(nodes.keySet()); // a deleted node's id may be reused
    for (Node n : nodes.values()) {
      String first = everOwner.putIfAbsent(n.id(), n.spec().inventoryId());
      assertThat(n.spec().inventoryId())
          .as("node %s keeps its inventoryId", n.id())
          .isEqualTo(first == null ? n.spec().inventoryId() : first);
    }
    return nodes;
  }

  /**
   * Every device has exactly one node, but the colliding ones, which have none, or (once a path
   * without interface MACs, the native sync of an export, gave them a node) at most one.
   */
  private void oneNodePerDevice(AdversarialFleet fleet, boolean strict)
      throws InterruptedException {
    Map<String, Integer> perDevice = new HashMap<>();
    for (Node n : observe().values()) {
      perDevice.merge(n.spec().inventoryId(), 1, Integer::sum);
    }
    for (long id : fleet.devices.keySet()) {
      int nodes = perDevice.getOrDefault(NetBoxDevices.inventoryId(id), 0);
      if (!fleet.colliding.contains(id)) {
        assertThat(nodes).as("nodes of device %d", id).isEqualTo(1);
      } else if (strict) {
        assertThat(nodes).as("nodes of colliding device %d", id).isZero();
      } else {
        assertThat(nodes).as("nodes of colliding device %d", id).isLessThanOrEqualTo(1);
      }
    }
    assertThat(perDevice.keySet())
        .allSatisfy(inv -> assertThat(fleet.devices).containsKey(NetBoxDevices.deviceId(inv)));
  }

  @Test
  void tenThousandAdversarialDevicesKeepOneNodeEachThroughEveryPath() throws Exception {
    long t0 = System.nanoTime();
    FakeNetBox shapes = startNetBox(FakeNetBox.Version.V4_2);
    AdversarialFleet fleet = new AdversarialFleet(shapes, 2026).generate(DEVICES);

    // 1. NetBox up to 4.5: name order, offset paging.
    PullReport byName = pull(serving(FakeNetBox.Version.V4_2, fleet.byName(), fleet));
    assertThat(IdentityIT.conflicts(byName.sync())).isEqualTo(fleet.colliding.size());
    assertThat(byName.sync().rejected()).hasSize(fleet.colliding.size());
    oneNodePerDevice(fleet, true);
    long revision = inventory.revision();

    // 2. NetBox 4.6: id order, cursor paging: nothing changes.
    PullReport byId = pull(serving(FakeNetBox.Version.V4_6, fleet.byId(), fleet));
    assertThat(byId.sync().created()).isEmpty();
    assertThat(byId.sync().updated()).isEmpty();
    assertThat(byId.sync().deleted()).isEmpty();
    assertThat(IdentityIT.conflicts(byId.sync())).isEqualTo(fleet.colliding.size());
    oneNodePerDevice(fleet, true);
    assertThat(inventory.revision()).isEqualTo(revision);
    long tPulls = System.nanoTime();

    // 3. Webhooks: newer, replayed, late and out of order; deletes and re-creates.
    FakeNetBox hooks = serving(FakeNetBox.Version.V4_2, List.of(), fleet);
    NetBoxSettings hs = Inventory.settings(hooks);
    WebhookApplier applier =
        new WebhookApplier(
            hs,
            Inventory.client(hs),
            inventory.store,
            inventory.cache,
            new WebhookLedger(10_000),
            Clock.systemUTC(),
            SyncConflicts.on(inventory.registry));
    List<Long> sample =
        fleet.devices.keySet().stream().filter(id -> !fleet.paired.contains(id)).toList();
    int events = 0;
    for (int i = 0; i < WEBHOOK_DEVICES; i++) {
      long id = sample.get(fleet.random.nextInt(sample.size()));
      if (!fleet.devices.containsKey(id)) {
        continue;
      }
      ObjectNode old = fleet.devices.get(id);
      if (i % 5 == 4) {
        ObjectNode again = fleet.recreated(id);
        events += hook(applier, "deleted", old, old, id);
        fleet.devices.remove(id);
        events += hook(applier, "created", again, null, again.get("id").asLong());
        events += hook(applier, "created", again, null, again.get("id").asLong()); // replayed
        fleet.devices.put(again.get("id").asLong(), again);
        continue;
      }
      ObjectNode newer = fleet.changed(id);
      ObjectNode newest = fleet.changed(id);
      if (i % 2 == 0) {
        events += hook(applier, "updated", newer, old, id);
        events += hook(applier, "updated", newest, newer, id);
      } else {
        events += hook(applier, "updated", newest, newer, id); // out of order
        events += hook(applier, "updated", newer, old, id); // late: changes nothing
      }
      events += hook(applier, "updated", newest, newer, id); // replayed
      events += hook(applier, "updated", old, null, id); // very late
      assertThat(observe().values())
          .filteredOn(n -> NetBoxDevices.inventoryId(id).equals(n.spec().inventoryId()))
          .singleElement()
          .satisfies(n -> assertThat(n.spec().name()).isEqualTo(newest.path("name").asText(null)));
      fleet.devices.put(id, newest);
    }

    long tHooks = System.nanoTime();
    // 4. The native sync: stale NetBox records, then another DCIM's records naming our nodes.
    List<ObjectNode> original = fleet.byId();
    int nativeConflicts = 0;
    for (int from = 0; from < original.size(); from += 1000) {
      ObjectNode body = Codec.mapper().createObjectNode();
      ArrayNode results = body.putArray("results");
      original.subList(from, Math.min(original.size(), from + 1000)).forEach(results::add);
      nativeConflicts += IdentityIT.conflicts(nativeSync(NetBoxDevices.read(body)));
      observe();
    }
    // Another DCIM's records (bamel's own format), built as its reader would.
    List<SyncItem> other = new ArrayList<>();
    List<String> ids = new ArrayList<>(observe().keySet());
    for (int i = 0; i < 200; i++) {
      other.add(
          SyncItem.replacing(
              i,
              ids.get(i * 37 % ids.size()),
              NodeSpec.builder().inventoryId("other-dcim:" + i).name("taken-" + i).build()));
    }
    Map<String, Node> beforeOther = observe();
    SyncReport foreign = nativeSync(other);
    assertThat(IdentityIT.conflicts(foreign)).isEqualTo(other.size());
    assertThat(observe()).isEqualTo(beforeOther);
    nativeConflicts += other.size();

    long tNative = System.nanoTime();
    // 5. The changed fleet pulled (id order): one node per device again; the colliding devices
    // are conflicts again (the export's records carry no interface MAC, so a device sharing a
    // boot MAC may have got a node there: it keeps it, and the pull refuses the MAC).
    PullReport fin = pull(serving(FakeNetBox.Version.V4_6, fleet.byId(), fleet));
    PullReport settled = pull(serving(FakeNetBox.Version.V4_6, fleet.byId(), fleet));
    oneNodePerDevice(fleet, false);
    assertThat(IdentityIT.conflicts(settled.sync())).isEqualTo(fleet.colliding.size());
    assertThat(settled.sync().created()).isEmpty();
    assertThat(settled.sync().deleted()).isEmpty();

    double counted = SyncConflicts.on(inventory.registry).value("netbox-pull");
    LOG.info(
        "adversarial fleet: {} devices generated ({} after re-creates), {} colliding,"
            + " {} webhook events, conflicts: pulls {} / {} / {} / {} (counter {}), native sync {},"
            + " webhooks {}; {} s (pulls 1-2 {} s, webhooks {} s, native sync {} s, pulls 3-4 {} s)",
        DEVICES,
        fleet.devices.size(),
        fleet.colliding.size(),
        events,
        IdentityIT.conflicts(byName.sync()),
        IdentityIT.conflicts(byId.sync()),
        IdentityIT.conflicts(fin.sync()),
        IdentityIT.conflicts(settled.sync()),
        counted,
        nativeConflicts,
        SyncConflicts.on(inventory.registry).value("netbox-webhook"),
        Duration.ofNanos(System.nanoTime() - t0).toSeconds(),
        Duration.ofNanos(tPulls - t0).toSeconds(),
        Duration.ofNanos(tHooks - tPulls).toSeconds(),
        Duration.ofNanos(tNative - tHooks).toSeconds(),
        Duration.ofNanos(System.nanoTime() - tNative).toSeconds());
  }

  /** Applies one webhook and checks it changed no node but device {@code id}'s. */
  private int hook(
      WebhookApplier applier, String event, ObjectNode device, ObjectNode before, long id)
      throws Exception {
    Map<String, NodeSpec> was = specs(observe());
    applier.apply(
        WebhookEvent.parse(
            AdversarialFleet.webhook(event, device, before, "req-" + fleet(id) + "-" + event)));
    Map<String, Node> now = observe();
    String mine = NetBoxDevices.inventoryId(id);
    for (Map.Entry<String, NodeSpec> e : was.entrySet()) {
      Node n = now.get(e.getKey());
      if (n == null || !n.spec().equals(e.getValue())) {
        assertThat(e.getValue().inventoryId())
            .as("webhook %s of device %d changed node %s", event, id, e.getKey())
            .isEqualTo(mine);
      }
    }
    for (Node n : now.values()) {
      if (!was.containsKey(n.id())) {
        assertThat(n.spec().inventoryId()).isEqualTo(mine);
      }
    }
    return 1;
  }

  private static String fleet(long id) {
    return Long.toString(id) + "-" + System.nanoTime();
  }

  private static Map<String, NodeSpec> specs(Map<String, Node> nodes) {
    Map<String, NodeSpec> out = new HashMap<>();
    nodes.forEach((id, n) -> out.put(id, n.spec()));
    return out;
  }

  private SyncReport nativeSync(List<SyncItem> items) throws InterruptedException {
    caughtUp();
    SyncPlan plan =
        SyncPlanner.plan(
            items,
            SyncPlanner.Current.of(inventory.cache),
            n -> false,
            false,
            new SyncPlanner.Rules("dcim", true, Set.of()));
    return new SyncExecutor(
            inventory.store,
            inventory.cache,
            Clock.systemUTC(),
            Duration.ofSeconds(10),
            SyncConflicts.on(inventory.registry),
            "api")
        .execute(plan, "dcim", "native-sync", inventory.cache.revision(), null);
  }
}
