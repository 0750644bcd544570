package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.ObservedPower;
import io.bamel.inventory.store.Keys;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.options.GetOption;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class NodesApiIT extends ApiFixtureTests {

  private ApiFixture.Response put(int i, String pool) {
    return f.json("PUT", "/api/v1/nodes/" + Json.id(i), Json.of(Json.spec(i, pool)));
  }

  @Test
  void putCreatesThenReplacesAndGetShowsItWithAnEtag() {
    ApiFixture.Response created = put(1, "gpu");
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    long rev = created.json().get("revision").asLong();
    assertThat(created.header("ETag")).isEqualTo("\"" + rev + "\"");
    assertThat(created.json().at("/spec/serial").asText()).isEqualTo("SN100001");

    ApiFixture.Response got = f.get("/api/v1/nodes/n001");
    assertThat(got.status()).isEqualTo(200);
    assertThat(got.header("ETag")).isEqualTo("\"" + rev + "\"");
    assertThat(got.json().at("/spec/pool").asText()).isEqualTo("gpu");

    NodeSpec moved = Json.spec(1, "gpu").toBuilder().rack("r9").build();
    ApiFixture.Response replaced = f.json("PUT", "/api/v1/nodes/n001", Json.of(moved));
    assertThat(replaced.status()).isEqualTo(200);
    assertThat(replaced.json().at("/spec/rack").asText()).isEqualTo("r9");
    assertThat(replaced.json().get("revision").asLong()).isGreaterThan(rev);

    // The same PUT again writes nothing.
    long before = f.revision();
    assertThat(f.json("PUT", "/api/v1/nodes/n001", Json.of(moved)).status()).isEqualTo(200);
    assertThat(f.revision()).isEqualTo(before);
  }

  @Test
  void ifMatchThatDoesNotMatchIs412AndIfMatchOfAMissingNodeToo() {
    long rev = put(1, "a").json().get("revision").asLong();
    String body = Json.of(Json.spec(1, "a").toBuilder().rack("x").build());
    ApiFixture.Response stale =
        f.json("PUT", "/api/v1/nodes/n001", body, Map.of("If-Match", "\"" + (rev - 1) + "\""));
    assertThat(stale.status()).isEqualTo(412);
    assertThat(stale.contentType()).startsWith("application/problem+json");
    ApiFixture.Response ok =
        f.json("PUT", "/api/v1/nodes/n001", body, Map.of("If-Match", "\"" + rev + "\""));
    assertThat(ok.status()).isEqualTo(200);
    assertThat(
            f.json("PATCH", "/api/v1/nodes/n404", "{\"rack\":\"y\"}", Map.of("If-Match", "*"))
                .status())
        .isEqualTo(404);
    assertThat(f.json("PUT", "/api/v1/nodes/n002", body, Map.of("If-Match", "*")).status())
        .isEqualTo(412);
    assertThat(f.json("PUT", "/api/v1/nodes/n001", body, Map.of("If-None-Match", "*")).status())
        .isEqualTo(412);
  }

  @Test
  void twoClientsWithTheSameIfMatchExactlyOneGets412() throws Exception {
    long rev = put(1, "a").json().get("revision").asLong();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<ApiFixture.Response>> results = new ArrayList<>();
    for (String rack : List.of("left", "right")) {
      results.add(
          pool.submit(
              () -> {
                go.await();
                return f.json(
                    "PATCH",
                    "/api/v1/nodes/n001",
                    "{\"rack\":\"" + rack + "\"}",
                    Map.of("If-Match", "\"" + rev + "\""));
              }));
    }
    go.countDown();
    List<Integer> codes = new ArrayList<>();
    for (Future<ApiFixture.Response> r : results) {
      codes.add(r.get().status());
    }
    pool.shutdown();
    assertThat(codes).containsExactlyInAnyOrder(200, 412);
  }

  @Test
  void patchIsAMergePatchAndNullRemovesAField() {
    put(1, "a");
    ApiFixture.Response r =
        f.json(
            "PATCH",
            "/api/v1/nodes/n001",
            "{\"labels\":{\"zone\":\"a\"},\"assetTag\":\"AT-9\",\"site\":null}");
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    JsonNode spec = r.json().get("spec");
    assertThat(spec.at("/labels/zone").asText()).isEqualTo("a");
    assertThat(spec.get("assetTag").asText()).isEqualTo("AT-9");
    assertThat(spec.has("site")).isFalse();
    assertThat(spec.get("serial").asText()).isEqualTo("SN100001");
  }

  @Test
  void fieldsANewerBamelStoredSurvivePatchAndPut() {
    // A newer bamel's field is, by design, outside this version's closed document.
    f.validateResponses = false;
    long rev =
        f.store.createNode(
            "n001", Json.spec(1, "a").withUnknownFields(Map.of("futureField", "kept")), null);
    awaitCache(rev);
    ApiFixture.Response patched = f.json("PATCH", "/api/v1/nodes/n001", "{\"rack\":\"r5\"}");
    assertThat(patched.status()).as(patched.toString()).isEqualTo(200);
    assertThat(patched.json().at("/spec/futureField").asText()).isEqualTo("kept");
    assertThat(f.json("PUT", "/api/v1/nodes/n001", Json.of(Json.spec(1, "a"))).status())
        .isEqualTo(200);
    assertThat(f.store.getNode("n001").orElseThrow().spec().extensions())
        .containsEntry("futureField", "kept");
    // A client cannot set such a field: it is an unknown field to this version.
    assertThat(f.json("PATCH", "/api/v1/nodes/n001", "{\"futureField\":\"x\"}").status())
        .isEqualTo(400);
  }

  @Test
  void putAndPatchDoNotChangePowerFields() {
    put(1, "a");
    ApiFixture.Response patch = f.json("PATCH", "/api/v1/nodes/n001", "{\"powerState\":\"on\"}");
    assertThat(patch.status()).isEqualTo(400);
    assertThat(patch.json().at("/errors/0/field").asText()).isEqualTo("powerState");
    NodeSpec on = Json.spec(1, "a").toBuilder().desiredPower(DesiredPower.ON).build();
    assertThat(f.json("PUT", "/api/v1/nodes/n001", Json.of(on)).status()).isEqualTo(400);
    assertThat(f.json("PATCH", "/api/v1/nodes/n001", "{\"powerPolicy\":\"manual\"}").status())
        .isEqualTo(400);
    assertThat(f.cache.node("n001").orElseThrow().spec().desiredPower()).isNull();
  }

  @Test
  void aPutThatLeavesThePowerFieldsOutKeepsThemAndAnExplicitOtherValueIsRefused() {
    put(1, "a");
    assertThat(f.json("POST", "/api/v1/nodes/n001/power", "{\"state\":\"on\"}").status())
        .isEqualTo(200);
    // A DCIM PUT of the hardware fields only, as NetBox-driven tools send it.
    NodeSpec dcim = Json.spec(1, "a").toBuilder().rack("z").build();
    assertThat(dcim.desiredPower()).isNull();
    ApiFixture.Response kept = f.json("PUT", "/api/v1/nodes/n001", Json.of(dcim));
    assertThat(kept.status()).as(kept.toString()).isEqualTo(200);
    assertThat(kept.json().at("/spec/rack").asText()).isEqualTo("z");
    assertThat(kept.json().at("/spec/powerState").asText()).isEqualTo("on");
    assertThat(kept.json().at("/spec/powerPolicy").asText()).isEqualTo("manual");
    // An explicit null is left out too.
    com.fasterxml.jackson.databind.node.ObjectNode nulls =
        io.bamel.inventory.store.Codec.mapper().valueToTree(dcim.toBuilder().rack("y").build());
    nulls.putNull("powerState");
    nulls.putNull("powerPolicy");
    assertThat(f.json("PUT", "/api/v1/nodes/n001", nulls.toString()).status()).isEqualTo(200);
    // Repeating the stored values is no change.
    NodeSpec same =
        dcim.toBuilder()
            .desiredPower(DesiredPower.ON)
            .powerPolicy(io.bamel.inventory.model.PowerPolicy.MANUAL)
            .build();
    assertThat(f.json("PUT", "/api/v1/nodes/n001", Json.of(same)).status()).isEqualTo(200);

    ApiFixture.Response off =
        f.json(
            "PUT",
            "/api/v1/nodes/n001",
            Json.of(dcim.toBuilder().desiredPower(DesiredPower.OFF).build()));
    assertThat(off.status()).isEqualTo(400);
    assertThat(off.contentType()).startsWith("application/problem+json");
    assertThat(off.json().get("detail").asText()).contains("POST /api/v1/nodes/n001/power");
    assertThat(off.json().get("errors")).hasSize(1);
    assertThat(off.json().at("/errors/0/field").asText()).isEqualTo("powerState");
    assertThat(off.json().at("/errors/0/message").asText())
        .contains("is on for this node")
        .contains("POST /api/v1/nodes/n001/power");
    ApiFixture.Response pool =
        f.json(
            "PUT",
            "/api/v1/nodes/n001",
            Json.of(
                dcim.toBuilder().powerPolicy(io.bamel.inventory.model.PowerPolicy.POOL).build()));
    assertThat(pool.status()).isEqualTo(400);
    assertThat(pool.json().at("/errors/0/field").asText()).isEqualTo("powerPolicy");
    assertThat(pool.json().at("/errors/0/message").asText()).contains("is manual for this node");

    NodeSpec stored = f.cache.node("n001").orElseThrow().spec();
    assertThat(stored.desiredPower()).isEqualTo(DesiredPower.ON);
    assertThat(stored.powerPolicy()).isEqualTo(io.bamel.inventory.model.PowerPolicy.MANUAL);
    assertThat(stored.rack()).isEqualTo("z");

    // A node with no desired state stored is off in effect: an explicit off is no change.
    put(2, "a");
    NodeSpec explicitOff = Json.spec(2, "a").toBuilder().desiredPower(DesiredPower.OFF).build();
    assertThat(f.json("PUT", "/api/v1/nodes/n002", Json.of(explicitOff)).status()).isEqualTo(200);
    assertThat(f.cache.node("n002").orElseThrow().spec().desiredPower()).isNull();
  }

  @Test
  void powerTakesTheNodeOverAndHandsItBack() {
    put(1, "a");
    ApiFixture.Response on = f.json("POST", "/api/v1/nodes/n001/power", "{\"state\":\"on\"}");
    assertThat(on.status()).as(on.toString()).isEqualTo(200);
    assertThat(on.json().at("/spec/powerState").asText()).isEqualTo("on");
    assertThat(on.json().at("/spec/powerPolicy").asText()).isEqualTo("manual");
    ApiFixture.Response back = f.json("POST", "/api/v1/nodes/n001/power", "{\"policy\":\"pool\"}");
    assertThat(back.json().at("/spec/powerPolicy").asText()).isEqualTo("pool");
    assertThat(back.json().at("/spec/powerState").asText()).isEqualTo("on");
    // A PUT keeps what the power endpoint set when it repeats it.
    NodeSpec same =
        Json.spec(1, "a").toBuilder()
            .desiredPower(DesiredPower.ON)
            .powerPolicy(io.bamel.inventory.model.PowerPolicy.POOL)
            .rack("z")
            .build();
    assertThat(f.json("PUT", "/api/v1/nodes/n001", Json.of(same)).status()).isEqualTo(200);
    put(2, null);
    assertThat(f.json("POST", "/api/v1/nodes/n002/power", "{\"policy\":\"pool\"}").status())
        .isEqualTo(409);
    assertThat(
            f.json("POST", "/api/v1/nodes/n001/power", "{\"state\":\"on\",\"policy\":\"pool\"}")
                .status())
        .isEqualTo(400);
    assertThat(f.json("POST", "/api/v1/nodes/n404/power", "{\"state\":\"on\"}").status())
        .isEqualTo(404);
  }

  @Test
  void writesRecordPrincipalAndRequestIdInEvents() {
    f.send(
        "PUT",
        "/api/v1/nodes/n001",
        ApiFixture.BMC,
        "application/json",
        Json.of(Json.spec(1, "a")).getBytes(StandardCharsets.UTF_8),
        Map.of("X-Request-ID", "req-42"));
    f.json("POST", "/api/v1/nodes/n001/power", "{\"state\":\"off\"}", Map.of("X-Request-ID", "r2"));
    ApiFixture.Response events = f.get("/api/v1/nodes/n001/events", ApiFixture.READ);
    assertThat(events.status()).isEqualTo(200);
    JsonNode items = events.json().get("items");
    assertThat(items).hasSize(2);
    assertThat(items.get(0).get("principal").asText()).isEqualTo("netops");
    assertThat(items.get(0).get("requestId").asText()).isEqualTo("req-42");
    assertThat(items.get(1).get("principal").asText()).isEqualTo("ops");
    assertThat(items.get(1).get("requestId").asText()).isEqualTo("r2");
  }

  @Test
  void statusIsUnknownUntilTheControllerWritesOne() {
    put(1, "a");
    ApiFixture.Response none = f.get("/api/v1/nodes/n001/status");
    assertThat(none.status()).isEqualTo(200);
    assertThat(none.json().get("state").asText()).isEqualTo("unknown");
    reportReadyAndOn("n001");
    assertThat(f.get("/api/v1/nodes/n001/status").json().get("state").asText()).isEqualTo("ready");
    assertThat(f.get("/api/v1/nodes/n404/status").status()).isEqualTo(404);
    assertThat(f.get("/api/v1/nodes/n404/events").status()).isEqualTo(404);
  }

  @Test
  void deleteRefusesANodeThatIsOnAndManagedUnlessForcedByAnAdminWithIfMatch() throws Exception {
    put(1, "a");
    f.json("POST", "/api/v1/nodes/n001/power", "{\"state\":\"on\"}");
    ApiFixture.Response refused = f.delete("/api/v1/nodes/n001", Map.of());
    assertThat(refused.status()).isEqualTo(409);
    assertThat(refused.json().get("detail").asText()).contains("power it off");
    assertThat(f.delete("/api/v1/nodes/n001?force=true", Map.of()).status()).isEqualTo(428);
    ApiFixture.Response writer =
        f.send(
            "DELETE",
            "/api/v1/nodes/n001?force=true",
            ApiFixture.WRITE,
            null,
            null,
            Map.of("If-Match", "*"));
    assertThat(writer.status()).isEqualTo(403);
    String etag = f.get("/api/v1/nodes/n001").header("ETag");
    assertThat(f.delete("/api/v1/nodes/n001?force=true", Map.of("If-Match", etag)).status())
        .isEqualTo(204);
    assertThat(f.get("/api/v1/nodes/n001").status()).isEqualTo(404);
    assertThat(keys(Keys.ROOT)).noneMatch(k -> k.contains("n001"));
  }

  @Test
  void deleteTakesANodeThatIsOnButNotManagedWithoutForce() {
    // An inventory-only node: no power interface, so bamel never drives it, whatever its state.
    NodeSpec unmanaged = Json.spec(1, "a").toBuilder().powerInterface(null).build();
    assertThat(f.json("PUT", "/api/v1/nodes/n001", Json.of(unmanaged)).status()).isEqualTo(201);
    reportReadyAndOn("n001");
    assertThat(f.get("/api/v1/nodes/n001/status").json().get("powerState").asText())
        .isEqualTo("on");

    assertThat(f.delete("/api/v1/nodes/n001", Map.of()).status()).isEqualTo(204);
    assertThat(f.get("/api/v1/nodes/n001").status()).isEqualTo(404);
  }

  @Test
  void deleteRemovesSpecStatusEventsAndMembershipInOneTransaction() throws Exception {
    put(1, "a");
    f.store.putStatus(
        "n001",
        0,
        NodeStatus.initial(Instant.parse("2026-01-01T00:00:00Z")),
        NodeEvent.of(Instant.parse("2026-01-01T00:00:00Z"), "seen", null),
        null);
    assertThat(keys(Keys.ROOT)).anyMatch(k -> k.startsWith(Keys.EVENTS + "n001/"));
    assertThat(keys(Keys.ROOT)).contains(Keys.poolMember("a", "n001"));
    long before = f.revision();
    assertThat(f.delete("/api/v1/nodes/n001", Map.of()).status()).isEqualTo(204);
    assertThat(f.revision()).isEqualTo(before + 1);
    assertThat(keys(Keys.ROOT)).noneMatch(k -> k.contains("n001"));
    assertThat(f.delete("/api/v1/nodes/n001", Map.of()).status()).isEqualTo(404);
  }

  @Test
  void aSerialMacOrAddressUsedByAnotherNodeIs409NamingIt() {
    put(1, "a");
    for (NodeSpec clash :
        List.of(
            Json.spec(2, "a").toBuilder().serial("SN100001").build(),
            Json.spec(2, "a").toBuilder().macAddress("0C-C4-7A-00-00-01").build(),
            Json.spec(2, "a").toBuilder().mgmtAddress("https://[2001:db8::1:0:1]").build())) {
      ApiFixture.Response r = f.json("PUT", "/api/v1/nodes/n002", Json.of(clash));
      assertThat(r.status()).as(r.toString()).isEqualTo(409);
      assertThat(r.json().get("conflictingNode").asText()).isEqualTo("n001");
    }
    assertThat(f.get("/api/v1/nodes/n002").status()).isEqualTo(404);
  }

  /**
   * Two clients create two nodes with the same serial at once: the cache cannot see either before
   * it answers, so only the index key's guard in etcd can refuse one. Repeated, since either may
   * win each round.
   */
  @Test
  void twoClientsCreatingNodesWithTheSameSerialAtOnceExactlyOneGets409() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 10; round++) {
        String serial = "SN-RACE-" + round;
        CountDownLatch go = new CountDownLatch(1);
        List<String> ids = List.of("race-" + round + "-a", "race-" + round + "-b");
        List<Future<ApiFixture.Response>> results = new ArrayList<>();
        for (int k = 0; k < 2; k++) {
          NodeSpec spec = Json.spec(100 + 2 * round + k, "a").toBuilder().serial(serial).build();
          String path = "/api/v1/nodes/" + ids.get(k);
          results.add(
              pool.submit(
                  () -> {
                    go.await();
                    return f.json("PUT", path, Json.of(spec));
                  }));
        }
        go.countDown();
        ApiFixture.Response first = results.get(0).get();
        ApiFixture.Response second = results.get(1).get();
        assertThat(List.of(first.status(), second.status()))
            .as("round %d: %s / %s", round, first, second)
            .containsExactlyInAnyOrder(201, 409);
        int winner = first.status() == 201 ? 0 : 1;
        ApiFixture.Response refused = winner == 0 ? second : first;
        assertThat(refused.contentType()).startsWith("application/problem+json");
        assertThat(refused.json().get("conflictingNode").asText()).isEqualTo(ids.get(winner));
        assertThat(f.get("/api/v1/nodes/" + ids.get(1 - winner)).status()).isEqualTo(404);
        ByteSequence key = ByteSequence.from(Keys.indexSerial(serial), StandardCharsets.UTF_8);
        assertThat(
                f.client
                    .getKVClient()
                    .get(key)
                    .get()
                    .getKvs()
                    .get(0)
                    .getValue()
                    .toString(StandardCharsets.UTF_8))
            .isEqualTo(ids.get(winner));
      }
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void listFiltersAndPagesAtOneRevision() {
    for (int i = 0; i < 30; i++) {
      put(i, i % 3 == 0 ? "gpu" : "cpu");
    }
    ApiFixture.Response gpu = f.get("/api/v1/nodes?pool=gpu");
    assertThat(gpu.json().get("items")).hasSize(10);
    assertThat(f.get("/api/v1/nodes?pool=gpu&rack=r0").json().get("items")).hasSize(3);
    assertThat(f.get("/api/v1/nodes?mac=0C-C4-7A-00-00-05").json().at("/items/0/id").asText())
        .isEqualTo("n005");
    assertThat(f.get("/api/v1/nodes?serial=SN100007").json().get("items")).hasSize(1);
    assertThat(f.get("/api/v1/nodes?mgmtAddress=https://%5B2001:db8::1:0:8%5D").json().get("items"))
        .hasSize(1);
    assertThat(f.get("/api/v1/nodes?state=unknown&site=dc1").json().get("items")).hasSize(30);
    assertThat(f.get("/api/v1/nodes?powerState=on").json().get("items")).isEmpty();
    f.json("PATCH", "/api/v1/nodes/n004", "{\"labels\":{\"a\":\"1\",\"b\":\"2\"}}");
    assertThat(f.get("/api/v1/nodes?labels=a=1,b=2").json().at("/items/0/id").asText())
        .isEqualTo("n004");
    assertThat(f.get("/api/v1/nodes?labels=a=1,b=3").json().get("items")).isEmpty();

    // Pages of 7 over cpu nodes, with a write between pages: every page shows the first revision.
    List<String> ids = new ArrayList<>();
    ApiFixture.Response page = f.get("/api/v1/nodes?pool=cpu&limit=7");
    long revision = page.json().get("revision").asLong();
    put(99, "cpu");
    while (true) {
      assertThat(page.status()).as(page.toString()).isEqualTo(200);
      assertThat(page.json().get("revision").asLong()).isEqualTo(revision);
      page.json().get("items").forEach(n -> ids.add(n.get("id").asText()));
      if (!page.json().has("continue")) {
        break;
      }
      page =
          f.get("/api/v1/nodes?pool=cpu&limit=7&continue=" + page.json().get("continue").asText());
    }
    assertThat(ids).hasSize(20).isSorted().doesNotContain("n099");
    // A token is bound to its filters.
    String token = f.get("/api/v1/nodes?pool=cpu&limit=7").json().get("continue").asText();
    assertThat(f.get("/api/v1/nodes?pool=gpu&limit=7&continue=" + token).status()).isEqualTo(400);
  }

  @Test
  void listFiltersTakeSeveralValuesSelectorsNamePrefixesAndText() {
    List<String> pools = List.of("gpu", "cpu", "mem");
    for (int i = 0; i < 12; i++) {
      put(i, pools.get(i % 3));
    }
    f.json("PATCH", "/api/v1/nodes/n001", "{\"labels\":{\"tier\":\"gold\"}}");
    f.json("PATCH", "/api/v1/nodes/n002", "{\"labels\":{\"tier\":\"silver\"}}");
    assertThat(ids("pool=gpu")).containsExactly("n000", "n003", "n006", "n009");
    List<String> gpuOrMem = ids("pool=gpu&pool=mem");
    assertThat(gpuOrMem).hasSize(8).isSorted();
    assertThat(ids("pool=mem,gpu")).isEqualTo(gpuOrMem);
    assertThat(ids("pool=gpu,mem&rack=r0,r1")).containsExactly("n000", "n005", "n008", "n009");
    assertThat(ids("state=unknown,ready&pool=cpu")).hasSize(4);
    assertThat(ids("labelSelector=tier%20in%20(gold,silver)")).containsExactly("n001", "n002");
    assertThat(ids("labelSelector=tier!%3Dgold")).hasSize(11).doesNotContain("n001");
    assertThat(ids("labelSelector=!tier,tier!%3Dx")).hasSize(10);
    assertThat(ids("labels=tier%3Dgold&labelSelector=tier")).containsExactly("n001");
    assertThat(ids("name=n00")).hasSize(10);
    assertThat(ids("q=sn10001")).containsExactly("n010", "n011");
    assertThat(ids("q=2001:db8::1:0:7")).containsExactly("n007");

    ApiFixture.Response bad = f.get("/api/v1/nodes?labelSelector=tier%20in%20(gold");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.json().at("/errors/0/field").asText()).isEqualTo("labelSelector");
    assertThat(bad.json().at("/errors/0/message").asText()).startsWith("at character 14: ");

    // Pages over two pools' members, with the token bound to the selection, not its spelling.
    List<String> paged = new ArrayList<>();
    ApiFixture.Response page = f.get("/api/v1/nodes?pool=gpu,mem&limit=3");
    while (true) {
      assertThat(page.status()).as(page.toString()).isEqualTo(200);
      page.json().get("items").forEach(n -> paged.add(n.get("id").asText()));
      if (!page.json().has("continue")) {
        break;
      }
      String token = page.json().get("continue").asText();
      assertThat(f.get("/api/v1/nodes?pool=gpu&limit=3&continue=" + token).status()).isEqualTo(400);
      page = f.get("/api/v1/nodes?pool=mem&pool=gpu&limit=3&continue=" + token);
    }
    assertThat(paged).isEqualTo(gpuOrMem);
  }

  @Test
  void anUnknownMethodOnAKnownPathIs405WithAllowAndAnUnknownPathStays404() {
    ApiFixture.Response post =
        f.send("POST", "/api/v1/nodes", ApiFixture.ADMIN, null, null, Map.of());
    assertThat(post.status()).isEqualTo(405);
    assertThat(post.header("Allow")).isEqualTo("GET");
    assertThat(post.contentType()).startsWith("application/problem+json");
    assertThat(post.json().get("type").asText()).isEqualTo("urn:bamel:problem:method-not-allowed");
    assertThat(post.json().get("detail").asText()).contains("POST").contains("allowed: GET");
    ApiFixture.Response pools = f.send("POST", "/api/v1/pools/gpu", null, null, null, Map.of());
    assertThat(pools.status()).isEqualTo(405);
    assertThat(pools.header("Allow")).isEqualTo("GET, PUT, PATCH, DELETE");
    assertThat(f.send("PUT", "/api/v1/watch", null, null, null, Map.of()).header("Allow"))
        .isEqualTo("GET");
    ApiFixture.Response unknown = f.send("POST", "/api/v1/nope", null, null, null, Map.of());
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.header("Allow")).isNull();
    assertThat(f.send("GET", "/api/v1/nope", null, null, null, Map.of()).status()).isEqualTo(404);
  }

  private List<String> ids(String query) {
    ApiFixture.Response r = f.get("/api/v1/nodes?" + query);
    assertThat(r.status()).as(query + ": " + r).isEqualTo(200);
    List<String> ids = new ArrayList<>();
    r.json().get("items").forEach(n -> ids.add(n.get("id").asText()));
    return ids;
  }

  @Test
  void aContinueTokenOfACompactedRevisionIs410() {
    for (int i = 0; i < 5; i++) {
      put(i, "a");
    }
    String token = f.get("/api/v1/nodes?limit=2").json().get("continue").asText();
    put(10, "a");
    f.etcd.compact(f.revision());
    ApiFixture.Response gone = f.get("/api/v1/nodes?limit=2&continue=" + token);
    assertThat(gone.status()).as(gone.toString()).isEqualTo(410);
    assertThat(gone.contentType()).startsWith("application/problem+json");
  }

  @Test
  void bodyOverTheLimitIs413() throws Exception {
    f.close();
    f = ApiFixture.start(ETCD.cluster(), ApiOptions.DEFAULTS.withMaxBodyBytes(1024));
    String big = "{\"name\":\"" + "x".repeat(2000) + "\"}";
    ApiFixture.Response r = f.json("PUT", "/api/v1/nodes/n001", big);
    assertThat(r.status()).isEqualTo(413);
    assertThat(r.contentType()).startsWith("application/problem+json");
  }

  private List<String> keys(String prefix) throws Exception {
    ByteSequence key = ByteSequence.from(prefix, StandardCharsets.UTF_8);
    return f
        .client
        .getKVClient()
        .get(key, GetOption.builder().isPrefix(true).withKeysOnly(true).build())
        .get()
        .getKvs()
        .stream()
        .map(kv -> kv.getKey().toString(StandardCharsets.UTF_8))
        .toList();
  }

  /** Writes the status a node controller writes for a node it found ready and on. */
  private void reportReadyAndOn(String id) {
    awaitCache(
        f.store.putStatus(
            id,
            0,
            NodeStatus.builder()
                .state(io.bamel.inventory.model.NodeState.READY)
                .observedPower(ObservedPower.ON)
                .build(),
            null,
            null));
  }

  private void awaitCache(long rev) {
    try {
      assertThat(f.cache.awaitRevision(rev, java.time.Duration.ofSeconds(5))).isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
