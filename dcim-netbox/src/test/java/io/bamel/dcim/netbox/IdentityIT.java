package io.bamel.dcim.netbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.sync.SyncConflicts;
import io.bamel.inventory.sync.SyncPlan;
import io.bamel.inventory.sync.SyncReport;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * One NetBox device, one node: the identity rule through the pull (offset and cursor paging),
 * webhooks and the native sync, against NetBox-shaped data (WireMock) and a real etcd. Each test
 * here failed on the code before the rule (issue 31's findings).
 */
class IdentityIT extends NetBoxTests {

  private static final WebhookSecret SECRET = WebhookSecret.of("webhook-secret-for-tests", "test");

  /** A NetBox of {@code version} serving {@code devices} in the order given. */
  private FakeNetBox serving(FakeNetBox.Version version, List<ObjectNode> devices) {
    FakeNetBox nb = startNetBox(version);
    nb.serve(devices, 40);
    return nb;
  }

  private NetBoxSettings settings(FakeNetBox nb) {
    return Inventory.settings(
        nb.url(), NetBoxSettings.Scope.BMC, true, NetBoxSettings.ReportBack.OFF, SECRET);
  }

  /** One complete pull of {@code nb} (fenced by this process's leadership). */
  private PullReport pull(FakeNetBox nb) {
    return inventory.pull(settings(nb));
  }

  private WebhookApplier applier(FakeNetBox nb) {
    NetBoxSettings s = settings(nb);
    return new WebhookApplier(
        s,
        Inventory.client(s),
        inventory.store,
        inventory.cache,
        new WebhookLedger(10_000),
        Clock.systemUTC(),
        SyncConflicts.on(inventory.registry));
  }

  /** Node id -> its inventoryId. */
  private Map<String, String> owners() throws InterruptedException {
    Map<String, String> out = new TreeMap<>();
    inventory.nodes().forEach((id, n) -> out.put(id, n.spec().inventoryId()));
    return out;
  }

  private static ObjectNode named(FakeNetBox nb, long id, String name, String site) {
    ObjectNode d = nb.device(id);
    d.put("name", name).put("display", name);
    ((ObjectNode) d.get("site")).put("slug", site).put("name", site).put("id", id);
    return d;
  }

  @Test
  void aSignedWebhookForTheOtherDeviceOfANameNeverTakesItsNode() throws Exception {
    FakeNetBox nb = startNetBox(FakeNetBox.Version.V4_2);
    ObjectNode d141 = named(nb, 141, "edge-gw-01", "ams1");
    ObjectNode d142 = named(nb, 142, "edge-gw-01", "fra1");
    nb.serve(List.of(d141, d142), 40);
    pull(nb);
    Node before = inventory.nodes().get("edge-gw-01");
    assertThat(before.spec().inventoryId()).isEqualTo("netbox:141");
    // Device 142 has a node of its own: its fallback id.
    assertThat(inventory.nodes().get("netbox-142").spec().inventoryId()).isEqualTo("netbox:142");

    ObjectNode update = d142.deepCopy();
    update.put("last_updated", "2025-01-01T00:00:00.000001Z");
    ((ObjectNode) update.get("rack")).put("name", "R-moved");
    WebhookApplier.Applied a =
        applier(nb)
            .apply(
                WebhookEvent.parse(AdversarialFleet.webhook("updated", update, d142, "req-142")));

    Map<String, Node> after = inventory.nodes();
    assertThat(after.get("edge-gw-01").spec()).isEqualTo(before.spec());
    assertThat(after.get("edge-gw-01").spec().mgmtAddress()).isEqualTo("[2001:db8::8d]");
    assertThat(after.get("netbox-142").spec().rack()).isEqualTo("R-moved");
    assertThat(a.result()).isEqualTo("applied");
  }

  @Test
  void aNodeGivenToTheOtherDeviceInThePastIsRepairedByTheNextCompletePull() throws Exception {
    // Device 142 came first (a webhook, or an older bamel): it holds edge-gw-01 with its data.
    FakeNetBox shapes = startNetBox(FakeNetBox.Version.V4_2);
    ObjectNode d141 = named(shapes, 141, "edge-gw-01", "ams1");
    ObjectNode d142 = named(shapes, 142, "edge-gw-01", "fra1");
    pull(serving(FakeNetBox.Version.V4_2, List.of(d142)));
    Node past = inventory.nodes().get("edge-gw-01");
    assertThat(past.spec().inventoryId()).isEqualTo("netbox:142");

    PullReport r = pull(serving(FakeNetBox.Version.V4_6, List.of(d141, d142)));
    assertThat(r.sync().rejected()).isEmpty();
    assertThat(owners())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("edge-gw-01", "netbox:142", "netbox-141", "netbox:141"));
    assertThat(inventory.nodes().get("edge-gw-01").spec()).isEqualTo(past.spec());
    assertThat(inventory.nodes().get("netbox-141").spec().site()).isEqualTo("ams1");
  }

  @Test
  void aFleetPulledInNameOrderThenInIdOrderChangesNothing() throws Exception {
    // NetBox up to 4.5 lists by name (spare-01 before Spare-01 or not, by collation); 4.6 by id.
    FakeNetBox shapes = startNetBox(FakeNetBox.Version.V4_2);
    List<ObjectNode> devices = new ArrayList<>();
    for (int i = 1; i <= 30; i++) {
      // The lower id has the upper-case name in half the pairs: neither order favours it.
      String low = i % 2 == 0 ? "Spare-%02d" : "spare-%02d";
      String high = i % 2 == 0 ? "spare-%02d" : "Spare-%02d";
      devices.add(named(shapes, 2L * i, String.format(low, i), "ams1"));
      devices.add(named(shapes, 2L * i + 1, String.format(high, i), "fra1"));
    }
    List<ObjectNode> byName = new ArrayList<>(devices);
    byName.sort(java.util.Comparator.comparing(d -> d.get("name").asText()));
    pull(serving(FakeNetBox.Version.V4_2, byName));
    Map<String, String> first = owners();
    long revision = inventory.revision();
    assertThat(first).hasSize(60);
    assertThat(first.get("spare-01")).isEqualTo("netbox:2");
    assertThat(first.get("netbox-3")).isEqualTo("netbox:3");

    PullReport idOrder = pull(serving(FakeNetBox.Version.V4_6, devices));
    assertThat(idOrder.paging()).isEqualTo("cursor");
    assertThat(idOrder.sync().unchanged()).hasSize(60);
    assertThat(idOrder.sync().created()).isEmpty();
    assertThat(idOrder.sync().updated()).isEmpty();
    assertThat(idOrder.sync().rejected()).isEmpty();
    assertThat(owners()).isEqualTo(first);
    assertThat(inventory.revision()).isEqualTo(revision);
  }

  @Test
  void shuffledDevicesOverOffsetAndCursorPagingGiveTheSameNodesAndOwners() throws Exception {
    FakeNetBox shapes = startNetBox(FakeNetBox.Version.V4_2);
    AdversarialFleet fleet = new AdversarialFleet(shapes, 42).generate(300);
    Random random = new Random(5);
    Map<String, String> expected = null;
    int conflicts = -1;
    List<List<ObjectNode>> orders = new ArrayList<>();
    orders.add(fleet.byId()); // cursor
    orders.add(fleet.byName());
    orders.add(fleet.shuffled(random));
    orders.add(fleet.shuffled(random));
    for (int i = 0; i < orders.size(); i++) {
      FakeNetBox nb =
          serving(i == 0 ? FakeNetBox.Version.V4_6 : FakeNetBox.Version.V4_2, orders.get(i));
      nb.bootMacs.putAll(shapes.bootMacs);
      nb.serveInterfaces(orders.get(i));
      PullReport r = pull(nb);
      Map<String, String> got = owners();
      int c = conflicts(r.sync());
      if (expected == null) {
        expected = got;
        conflicts = c;
      } else {
        assertThat(got).as("order %d", i).isEqualTo(expected);
        assertThat(c).isEqualTo(conflicts);
      }
      for (String id : got.keySet()) {
        inventory.store.deleteNode(id, inventory.nodes().get(id).specRevision());
      }
    }
    assertThat(conflicts).isEqualTo(fleet.colliding.size()).isPositive();
  }

  @Test
  void aDeviceWhoseNameHasNoAsciiLetterGetsANode() throws Exception {
    FakeNetBox nb = startNetBox(FakeNetBox.Version.V4_2);
    nb.serve(
        List.of(
            named(nb, 1, "节点", "ams1"),
            named(nb, 2, "сервер", "ams1"),
            named(nb, 3, "ノード・ワン", "ams1"),
            named(nb, 4, "Müller-01", "ams1")),
        40);
    PullReport r = pull(nb);
    assertThat(r.sync().rejected()).isEmpty();
    assertThat(owners())
        .containsEntry("netbox-1", "netbox:1")
        .containsEntry("netbox-2", "netbox:2")
        .containsEntry("netbox-3", "netbox:3")
        .containsEntry("muller-01", "netbox:4");
    assertThat(inventory.nodes().get("netbox-1").spec().name()).isEqualTo("节点");
  }

  @Test
  void twoServersWithAPlaceholderSerialBothGetNodesAndKeepIt() throws Exception {
    FakeNetBox nb = startNetBox(FakeNetBox.Version.V4_2);
    ObjectNode a = nb.device(1).put("serial", "To be filled by O.E.M.");
    ObjectNode b = nb.device(2).put("serial", "To be filled by O.E.M.");
    ObjectNode c = nb.device(3).put("serial", "default STRING ");
    ObjectNode d = nb.device(4).put("serial", "Default string");
    nb.serve(List.of(a, b, c, d), 40);
    PullReport r = pull(nb);
    assertThat(r.sync().rejected()).isEmpty();
    assertThat(r.sync().created()).hasSize(4);
    Map<String, Node> nodes = inventory.nodes();
    assertThat(nodes.get("r00-u001").spec().serial()).isEqualTo("To be filled by O.E.M.");
    assertThat(nodes.get("r00-u002").spec().serial()).isEqualTo("To be filled by O.E.M.");
    assertThat(nodes.get("r00-u003").spec().serial()).isEqualTo("default STRING ");
  }

  @Test
  void aConflictIsReportedCountedAndRecordedOnTheNodeItCollidedWith() throws Exception {
    FakeNetBox nb = startNetBox(FakeNetBox.Version.V4_2);
    ObjectNode a = nb.device(5);
    ObjectNode b = nb.device(6).put("serial", a.get("serial").asText());
    nb.serve(List.of(b, a), 40);
    NetBoxSource source = inventory.source(settings(nb));
    try {
      PullReport r = source.cycle();
      assertThat(r.sync().rejected())
          .singleElement()
          .satisfies(
              e -> {
                assertThat(e.item()).isEqualTo(0);
                assertThat(e.reason())
                    .isEqualTo(
                        SyncPlan.CONFLICT
                            + "record 'netbox:6': serial SN000005 is already used by node"
                            + " r00-u005 (inventoryId 'netbox:5')");
              });
      assertThat(source.status().lastPull().conflicts()).isEqualTo(1);
      assertThat(SyncConflicts.on(inventory.registry).value("netbox-pull")).isEqualTo(1.0);
      List<NodeEvent> events = inventory.store.events("r00-u005");
      assertThat(events.get(events.size() - 1).reason()).isEqualTo("sync-conflict");
      assertThat(events.get(events.size() - 1).message())
          .isEqualTo(
              "sync refused record 'netbox:6': serial SN000005 is already used by node r00-u005"
                  + " (inventoryId 'netbox:5') (it would be node r00-u006)");
      // Found again by the next pull: counted again, recorded once.
      source.cycle();
      assertThat(inventory.store.events("r00-u005")).hasSameSizeAs(events);
      assertThat(SyncConflicts.on(inventory.registry).value("netbox-pull")).isEqualTo(2.0);
    } finally {
      source.close();
    }
  }

  static int conflicts(SyncReport r) {
    return (int)
        r.rejected().stream()
            .filter(e -> e.reason() != null && e.reason().startsWith(SyncPlan.CONFLICT))
            .count();
  }
}
