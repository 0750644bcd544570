package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.ObservedPower;
import io.bamel.inventory.store.Codec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SyncApiIT extends ApiFixtureTests {

  private static String records(List<Integer> which, String pool) {
    ObjectNode body = Codec.mapper().createObjectNode();
    ArrayNode items = body.putArray("items");
    for (int i : which) {
      ObjectNode item = items.addObject();
      item.put("id", Json.id(i));
      item.set("spec", Codec.mapper().valueToTree(Json.spec(i, pool)));
    }
    return body.toString();
  }

  private static List<Integer> range(int from, int to) {
    List<Integer> list = new ArrayList<>();
    for (int i = from; i < to; i++) {
      list.add(i);
    }
    return list;
  }

  @Test
  void syncCreatesUpdatesAndASecondIdenticalSyncWritesNothing() {
    ApiFixture.Response first = f.json("POST", "/api/v1/sync", records(range(0, 20), "a"));
    assertThat(first.status()).as(first.toString()).isEqualTo(200);
    assertThat(first.json().get("created")).hasSize(20);
    assertThat(f.get("/api/v1/nodes?pool=a").json().get("items")).hasSize(20);
    // Each created node records who synced it.
    assertThat(f.get("/api/v1/nodes/n003/events").json().at("/items/0/principal").asText())
        .isEqualTo("ops");
    // The events of one sync carry one time (so its creates' events are encoded once).
    String time = f.get("/api/v1/nodes/n000/events").json().at("/items/0/time").asText();
    assertThat(time).isNotEmpty();
    for (int i : List.of(1, 7, 19)) {
      assertThat(
              f.get("/api/v1/nodes/" + Json.id(i) + "/events").json().at("/items/0/time").asText())
          .isEqualTo(time);
    }

    long before = f.revision();
    ApiFixture.Response again = f.json("POST", "/api/v1/sync", records(range(0, 20), "a"));
    assertThat(again.json().get("unchanged")).hasSize(20);
    assertThat(again.json().get("created")).isEmpty();
    assertThat(f.revision()).isEqualTo(before);

    ApiFixture.Response moved =
        f.json(
            "POST",
            "/api/v1/sync",
            records(range(0, 20), "b"),
            Map.of("X-Request-ID", "netbox-sync-7"));
    assertThat(moved.json().get("updated")).hasSize(20);
    assertThat(f.get("/api/v1/pools/b").json().get("memberCount").asInt()).isEqualTo(20);
    // The update's event names the principal and the request that made it.
    JsonNode events = f.get("/api/v1/nodes/n003/events").json().get("items");
    JsonNode update = events.get(events.size() - 1);
    assertThat(update.get("principal").asText()).isEqualTo("ops");
    assertThat(update.get("requestId").asText()).isEqualTo("netbox-sync-7");
  }

  @Test
  void aListingCanBePostedBackAsItIs() {
    f.json("POST", "/api/v1/sync", records(range(0, 5), "a"));
    String listing = f.get("/api/v1/nodes").body();
    long before = f.revision();
    ApiFixture.Response r = f.json("POST", "/api/v1/sync", listing);
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.json().get("unchanged")).hasSize(5);
    assertThat(f.revision()).isEqualTo(before);
  }

  /**
   * {@code spec} keeping only its {@code key} among the matching keys: inventory id and serial
   * dropped, management address and MAC replaced by ones no node has (a Redfish node needs both).
   */
  private static io.bamel.inventory.model.NodeSpecBuilder onlyMatching(
      NodeSpec spec, String key, int i) {
    var b = spec.toBuilder();
    if (!key.equals("inventoryId")) {
      b.inventoryId(null);
    }
    if (!key.equals("serial")) {
      b.serial(null);
    }
    if (!key.equals("mgmtAddress")) {
      b.mgmtAddress("https://198.51.100." + (200 + i));
    }
    if (!key.equals("macAddress")) {
      b.macAddress("0c:c4:7a:99:00:0" + i);
    }
    return b;
  }

  @Test
  void aNodeIsItsRecordsAndMatchingOnlyAdoptsANodeWithoutOne() {
    // n000..n003 belong to dcim-0..dcim-3; n004..n007 to no record (made by hand, say).
    f.json("POST", "/api/v1/sync", records(range(0, 4), "a"));
    ObjectNode unowned = Codec.mapper().createObjectNode();
    for (int i = 4; i < 8; i++) {
      ObjectNode item = unowned.withArray("items").addObject();
      item.put("id", Json.id(i));
      item.set(
          "spec",
          Codec.mapper().valueToTree(Json.spec(i, "a").toBuilder().inventoryId(null).build()));
    }
    f.json("POST", "/api/v1/sync", unowned.toString());
    for (int base : List.of(0, 4)) {
      ObjectNode body = Codec.mapper().createObjectNode();
      ArrayNode items = body.putArray("items");
      // Other ids each time and exactly one key that matches an existing node: the other keys are
      // absent or hold values no node has, so each item can only be matched by the key it tests.
      int k = 0;
      for (String key : List.of("inventoryId", "serial", "mgmtAddress", "macAddress")) {
        NodeSpec s =
            onlyMatching(Json.spec(base + k, "a"), key, base + k).rack("m" + (base + k)).build();
        ObjectNode item = items.addObject();
        item.put("id", "other-" + (base + k++));
        item.set("spec", Codec.mapper().valueToTree(s));
      }
      ApiFixture.Response r = f.json("POST", "/api/v1/sync", body.toString());
      if (base == 0) {
        // n001..n003 are dcim-1..3's: a record without inventoryId collides, it takes nothing.
        assertThat(r.json().get("updated"))
            .extracting(e -> e.get("id").asText())
            .containsExactly("n000");
        assertThat(r.json().get("rejected"))
            .extracting(e -> e.get("reason").asText())
            .allSatisfy(reason -> assertThat(reason).startsWith("identity conflict: "))
            .satisfiesExactly(
                a -> assertThat(a).contains("n001"),
                a -> assertThat(a).contains("n002"),
                a -> assertThat(a).contains("n003"));
      } else {
        // n005..n007 belong to no record: each is adopted by its key. other-4 carries dcim-4,
        // which no node holds (n004 has no inventoryId): a new node.
        assertThat(r.json().get("updated"))
            .extracting(e -> e.get("id").asText())
            .containsExactly("n005", "n006", "n007");
        assertThat(r.json().get("created"))
            .extracting(e -> e.get("id").asText())
            .containsExactly("other-4");
        assertThat(f.get("/api/v1/nodes?rack=m7").json().at("/items/0/id").asText())
            .isEqualTo("n007");
      }
    }
    assertThat(f.cache.nodeCount()).isEqualTo(9);

    // Precedence (each step in SyncPlannerTest): n000's inventory id with n001's serial is n000,
    // whose new serial then clashes with n001's.
    NodeSpec both =
        onlyMatching(Json.spec(0, "a"), "inventoryId", 5)
            .serial(Json.spec(1, "a").serial())
            .build();
    ObjectNode clash = Codec.mapper().createObjectNode();
    ObjectNode item = clash.putArray("items").addObject();
    item.put("id", "other-9");
    item.set("spec", Codec.mapper().valueToTree(both));
    ApiFixture.Response rejected = f.json("POST", "/api/v1/sync", clash.toString());
    assertThat(rejected.json().get("rejected")).hasSize(1);
    assertThat(rejected.json().at("/rejected/0/id").asText()).isEqualTo("n000");
    assertThat(rejected.json().at("/rejected/0/reason").asText()).contains("n001");
  }

  @Test
  void rejectsInvalidItemsAndDuplicatesWithReasonsAndWritesTheRest() {
    ObjectNode body = Codec.mapper().createObjectNode();
    ArrayNode items = body.putArray("items");
    items.addObject().put("id", "good").set("spec", Codec.mapper().valueToTree(Json.spec(1, "a")));
    items
        .addObject()
        .put("id", "bad-mac")
        .set(
            "spec",
            Codec.mapper().valueToTree(Json.spec(2, "a").toBuilder().macAddress("zz").build()));
    items
        .addObject()
        .put("id", "dup-serial")
        .set(
            "spec",
            Codec.mapper().valueToTree(Json.spec(3, "a").toBuilder().serial("SN100001").build()));
    items
        .addObject()
        .put("id", "Bad/Id")
        .set("spec", Codec.mapper().valueToTree(Json.spec(4, "a")));
    items.add("not an object");
    ApiFixture.Response r = f.json("POST", "/api/v1/sync", body.toString());
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().get("created"))
        .extracting(e -> e.get("id").asText())
        .containsExactly("good");
    JsonNode rejected = r.json().get("rejected");
    assertThat(rejected).hasSize(4);
    assertThat(rejected.get(0).at("/errors/0/field").asText()).isEqualTo("macAddress");
    assertThat(rejected.get(1).get("reason").asText()).contains("used by node good");
    assertThat(rejected.get(2).get("reason").asText()).contains("invalid id");
    assertThat(rejected.get(3).get("item").asInt()).isEqualTo(4);
  }

  @Test
  void dryRunReportsTheSameAndWritesNothing() {
    f.json("POST", "/api/v1/sync", records(range(0, 5), "a"));
    long before = f.revision();
    String set = records(range(3, 8), "a");
    ApiFixture.Response dry = f.json("POST", "/api/v1/sync?dryRun=true&prune=true&pool=a", set);
    assertThat(dry.status()).as(dry.toString()).isEqualTo(200);
    assertThat(dry.json().get("dryRun").asBoolean()).isTrue();
    assertThat(f.revision()).isEqualTo(before);
    ApiFixture.Response real = f.json("POST", "/api/v1/sync?prune=true&pool=a", set);
    for (String part : List.of("created", "updated", "unchanged", "deleted", "rejected")) {
      assertThat(real.json().get(part)).as(part).isEqualTo(dry.json().get(part));
    }
    assertThat(real.json().get("deleted")).hasSize(3);
    assertThat(real.json().get("created")).hasSize(3);
  }

  @Test
  void pruneDeletesOnlyOffNodesInScope() throws Exception {
    f.json("POST", "/api/v1/sync", records(range(0, 6), "a"));
    f.json("POST", "/api/v1/sync", records(range(10, 13), "b"));
    // n001 is desired on; n002 is observed on; the others are off.
    f.json("POST", "/api/v1/nodes/n001/power", "{\"state\":\"on\"}");
    long rev =
        f.store.putStatus(
            "n002",
            0,
            NodeStatus.builder().state(NodeState.READY).observedPower(ObservedPower.ON).build(),
            null,
            null);
    assertThat(f.cache.awaitRevision(rev, Duration.ofSeconds(5))).isTrue();
    ApiFixture.Response r =
        f.json("POST", "/api/v1/sync?prune=true&pool=a", records(List.of(0), "a"));
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.json().get("deleted"))
        .extracting(e -> e.get("id").asText())
        .containsExactly("n003", "n004", "n005");
    assertThat(r.json().get("rejected"))
        .extracting(e -> e.get("id").asText())
        .containsExactly("n001", "n002");
    assertThat(r.json().at("/rejected/0/reason").asText()).contains("on");
    assertThat(f.get("/api/v1/nodes?pool=b").json().get("items")).hasSize(3);
    assertThat(f.get("/api/v1/nodes?pool=a").json().get("items")).hasSize(3);
    assertThat(f.json("POST", "/api/v1/sync?prune=true", records(List.of(0), "a")).status())
        .isEqualTo(400);
  }

  @Test
  void aNetBoxExportOfFiftyDevicesSyncsAndResyncsToNothing() {
    String export = netbox(50);
    ApiFixture.Response r = f.json("POST", "/api/v1/sync?format=netbox", export);
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.json().get("created")).hasSize(50);
    assertThat(r.json().get("rejected")).isEmpty();
    JsonNode node = f.get("/api/v1/nodes/r1-u07").json().get("spec");
    assertThat(node.get("inventoryId").asText()).isEqualTo("netbox:1007");
    assertThat(node.get("serial").asText()).isEqualTo("NBX0007");
    assertThat(node.get("site").asText()).isEqualTo("ams1");
    assertThat(node.get("rack").asText()).isEqualTo("R1");
    assertThat(node.get("rackPosition").asInt()).isEqualTo(7);
    assertThat(node.get("mgmtAddress").asText()).isEqualTo("192.0.2.107");
    assertThat(node.get("macAddress").asText()).isEqualTo("52:54:00:00:00:07");
    assertThat(node.get("pool").asText()).isEqualTo("compute");
    assertThat(node.get("powerInterface").asText()).isEqualTo("ipmi");
    assertThat(node.get("bmcCredentials").asText()).isEqualTo("ipmi-admin");
    assertThat(node.at("/labels/netbox-status").asText()).isEqualTo("active");

    // Fields NetBox does not know survive a re-sync; the same export writes nothing.
    f.json("PATCH", "/api/v1/nodes/r1-u07", "{\"bootProfile\":\"k8s\"}");
    long before = f.revision();
    ApiFixture.Response again = f.json("POST", "/api/v1/sync?format=netbox", export);
    assertThat(again.json().get("unchanged")).hasSize(50);
    assertThat(f.revision()).isEqualTo(before);
    assertThat(f.get("/api/v1/nodes/r1-u07").json().at("/spec/bootProfile").asText())
        .isEqualTo("k8s");
  }

  @Test
  void aPartialNetBoxPageIsRefusedForAPruneAndChangesNothing() throws Exception {
    // The whole site first: 25 devices.
    ApiFixture.Response whole = f.json("POST", "/api/v1/sync?format=netbox", netbox(25));
    assertThat(whole.json().get("created")).hasSize(25);
    long before = f.revision();

    // Then only the first page of NetBox's answer, as `curl ...?limit=10` gives it.
    ObjectNode page = (ObjectNode) Codec.mapper().readTree(netbox(25));
    ArrayNode results = (ArrayNode) page.get("results");
    while (results.size() > 10) {
      results.remove(results.size() - 1);
    }
    page.put("next", "https://netbox.example/api/dcim/devices/?limit=10&offset=10");
    for (String dryRun : List.of("true", "false")) {
      ApiFixture.Response r =
          f.json(
              "POST",
              "/api/v1/sync?format=netbox&prune=true&site=ams1&dryRun=" + dryRun,
              page.toString());
      assertThat(r.status()).as(r.toString()).isEqualTo(409);
      assertThat(r.json().get("detail").asText())
          .contains("prune refused")
          .contains("one page of several")
          .contains("?limit=10&offset=10");
    }
    // count above the results says the same without next.
    page.putNull("next");
    ApiFixture.Response counted =
        f.json("POST", "/api/v1/sync?format=netbox&prune=true&site=ams1", page.toString());
    assertThat(counted.status()).isEqualTo(409);
    assertThat(counted.json().get("detail").asText()).contains("holds 10 of the 25");
    assertThat(f.revision()).isEqualTo(before);
    assertThat(f.get("/api/v1/nodes?site=ams1").json().get("items")).hasSize(25);

    // Without prune a page is just an update of its devices.
    ApiFixture.Response plain = f.json("POST", "/api/v1/sync?format=netbox", page.toString());
    assertThat(plain.status()).isEqualTo(200);
    assertThat(plain.json().get("unchanged")).hasSize(10);
  }

  static String netbox(int count) {
    ObjectNode body = Codec.mapper().createObjectNode();
    body.put("count", count);
    body.putNull("next");
    body.putNull("previous");
    ArrayNode results = body.putArray("results");
    for (int i = 0; i < count; i++) {
      ObjectNode d = results.addObject();
      d.put("id", 1000 + i);
      d.put("url", "https://netbox.example/api/dcim/devices/" + (1000 + i) + "/");
      d.put("display", String.format(Locale.ROOT, "R1-U%02d", i));
      d.put("name", String.format(Locale.ROOT, "R1-U%02d", i));
      d.putObject("device_type").put("id", 3).put("model", "PowerEdge R650");
      d.putObject("role").put("id", 1).put("name", "Server").put("slug", "server");
      d.put("serial", String.format(Locale.ROOT, "NBX%04d", i));
      if (i % 2 == 0) {
        d.put("asset_tag", "A" + i);
      } else {
        d.putNull("asset_tag");
      }
      d.putObject("site").put("id", 1).put("name", "Amsterdam 1").put("slug", "ams1");
      d.putObject("rack").put("id", 4).put("name", "R1");
      d.put("position", (double) i);
      d.put("face", "front");
      d.putObject("status").put("value", "active").put("label", "Active");
      d.putObject("oob_ip")
          .put("id", 500 + i)
          .put("family", 4)
          .put("address", "192.0.2." + (100 + i) + "/24");
      d.putObject("primary_mac_address")
          .put("id", 900 + i)
          .put("mac_address", String.format(Locale.ROOT, "52:54:00:00:00:%02X", i));
      ObjectNode custom = d.putObject("custom_fields");
      custom.put("bamel_pool", "compute");
      custom.put("bamel_power_interface", "ipmi");
      custom.put("bamel_bmc_credentials", "ipmi-admin");
      d.putArray("tags");
      d.put("created", "2025-01-01T00:00:00Z");
    }
    return body.toString();
  }
}
