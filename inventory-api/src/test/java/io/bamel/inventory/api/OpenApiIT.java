package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.inventory.model.NodeReadings;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.PoolStatus;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.testing.EtcdExtension;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class OpenApiIT {

  @RegisterExtension static final EtcdExtension ETCD = EtcdExtension.singleNode();

  @Test
  void theServedDocumentParsesAsOpenApi31AndDescribesEveryRoute() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      ApiFixture.Response doc = f.send("GET", "/openapi.json", null, null, null, Map.of());
      assertThat(doc.status()).isEqualTo(200);
      ParseOptions options = new ParseOptions();
      options.setResolve(true);
      SwaggerParseResult result = new OpenAPIV3Parser().readContents(doc.body(), null, options);
      assertThat(result.getMessages()).isEmpty();
      OpenAPI api = result.getOpenAPI();
      assertThat(api.getOpenapi()).isEqualTo("3.1.0");
      for (InventoryApi.Route route : f.api.routes()) {
        PathItem item = api.getPaths().get(route.path());
        assertThat(item).as("path %s", route.path()).isNotNull();
        PathItem.HttpMethod method =
            PathItem.HttpMethod.valueOf(route.method().toUpperCase(Locale.ROOT));
        assertThat(item.readOperationsMap())
            .as("%s %s", route.method(), route.path())
            .containsKey(method);
      }
      long described =
          api.getPaths().values().stream().mapToLong(p -> p.readOperations().size()).sum();
      assertThat(described).isEqualTo(f.api.routes().size());

      ApiFixture.Response page = f.send("GET", "/docs", null, null, null, Map.of());
      assertThat(page.contentType()).startsWith("text/html");
      assertThat(page.body()).contains("/api/v1/sync").contains("/openapi.json");
    }
  }

  @Test
  void realResponsesOfEveryEndpointMatchTheDocumentWithClosedObjects() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      ResponseValidator v =
          new ResponseValidator(f.send("GET", "/openapi.json", null, null, null, Map.of()).body());
      assertThat(v.unsaidObjects())
          .as("object schemas that do not say whether they are closed")
          .isEmpty();

      long before = f.revision();
      // Pools and nodes with every field the server can show.
      v.check(
          "PUT",
          "/api/v1/pools/{name}",
          f.json(
              "PUT",
              "/api/v1/pools/gpu",
              """
              {"minNodes":1,"maxNodes":4,"scaleUpThreshold":0.8,"scaleDownThreshold":0.3,
               "scaleDownUnneededTime":"10m","delayAfterScaleUp":"1m","scaleUpCooldown":"2m",
               "scaleUpTrendWindow":"20m","scaleUpLookahead":"5m","consolidate":true,
               "maxConcurrentTransitions":2,"resources":["cpu","gpu"],"default":true,
               "scaleUpOn":"either","labels":{"team":"ml"},
               "timeouts":{"powerOn":"5m","join":"10m","drain":"15m","powerOff":"5m",
                 "powerOnConfirm":"2m","notReady":"5m","remediation":"30m"},
               "triggers":[{"name":"queue","kind":"prometheus","metricQuery":"sum(queue_depth)","threshold":10,
                 "duration":"2m","scaleDirection":"up"}],
               "dryRun":false}
              """));
      v.check(
          "PATCH",
          "/api/v1/pools/{name}",
          f.json("PATCH", "/api/v1/pools/gpu", "{\"maxNodes\":5}"));
      v.check(
          "PUT",
          "/api/v1/nodes/{id}",
          f.json(
              "PUT",
              "/api/v1/nodes/n1",
              """
              {"name":"n1","inventoryId":"dcim-1","serial":"SN1","assetTag":"A1","site":"dc1",
               "rack":"r1","rackPosition":7,"pool":"gpu","mgmtAddress":"https://192.0.2.7",
               "macAddress":"0c:c4:7a:00:00:01","powerInterface":"redfish",
               "bmcCredentials":"bmc-n1","bmcTls":{"insecureSkipVerify":false},
               "bootProfile":"default",
               "resources":{"cpu":"64","memory":"512Gi","gpu":"8","storage":"4Ti",
                 "custom":{"example.com/fpga":"2"}},
               "kubernetesNodeName":"k-n1","labels":{"zone":"a"},"maintenance":false,
               "idlePowerWatts":120.5}
              """));
      v.check(
          "PUT",
          "/api/v1/nodes/{id}",
          f.json(
              "PUT",
              "/api/v1/nodes/n2",
              """
              {"mgmtAddress":"192.0.2.8","powerInterface":"ipmi","bmcCredentials":"bmc-n2",
               "ipmi":{"cipherSuite":17,"privilege":"OPERATOR"},"wakeOnLan":{"broadcast":"192.0.2.255"}}
              """));
      v.check(
          "PATCH",
          "/api/v1/nodes/{id}",
          f.json("PATCH", "/api/v1/nodes/n2", "{\"labels\":{\"zone\":\"b\"}}"));
      NodeStatus status =
          Codec.mapper()
              .readValue(
                  """
                  {"state":"ready","stateSince":"2026-01-02T03:04:05Z","lastError":"none",
                   "errorCount":1,"powerState":"on","lastPowerAction":"power-on",
                   "powerActionTime":"2026-01-02T03:00:00Z","kubernetesNode":"k-n1",
                   "nodeReady":true,"bmcReachable":true,"bootTime":"2026-01-02T03:01:00Z",
                   "joinTime":"2026-01-02T03:02:00Z","observedSpecRevision":5,
                   "timerStarted":"2026-01-02T03:04:05Z","timerElapsed":"90s",
                   "powerCycled":true,"inspectRequestedAt":"2026-01-02T03:05:00Z",
                   "notReadySince":"2026-01-02T03:03:00Z",
                   "hardware":{"inspectedAt":"2026-01-02T03:01:30Z","vendor":"Dell Inc.",
                     "model":"PowerEdge R750","serial":"SN1",
                     "systemUuid":"4c4c4544-0035-3010-8056-c7c04f354e32","biosVersion":"1.10.2",
                     "cpu":{"model":"Intel Xeon Gold 6338","count":2},"memoryMiB":524288,
                     "gpus":[{"model":"NVIDIA A100","count":8}],
                     "macs":["0c:c4:7a:00:00:01"],"error":"the last inspection timed out"},
                   "conditions":[{"type":"HardwareMismatch","status":"False",
                     "reason":"MatchesDcim","message":"as recorded",
                     "lastTransitionTime":"2026-01-02T03:01:30Z"}]}
                  """,
                  NodeStatus.class);
      f.store.putStatus(
          "n1",
          0,
          status,
          io.bamel.inventory.model.NodeEvent.transition(
              java.time.Instant.parse("2026-01-02T03:04:05Z"),
              io.bamel.inventory.model.NodeState.JOINING,
              io.bamel.inventory.model.NodeState.READY,
              "joined",
              "admit",
              "ok"),
          null);
      // Specs with the fields no API token may set alone (a power-off command the server's
      // configuration must know, a Proxmox VM): stored as a node controller's peer would.
      f.store.createNode(
          "n7",
          Codec.mapper()
              .readValue(
                  """
                  {"mgmtAddress":"https://192.0.2.20:8006","powerInterface":"proxmox",
                   "bmcCredentials":"pve","proxmox":{"node":"pve1","vmid":101},
                   "bmcTls":{"caFile":"/etc/bamel/pve-ca.pem"}}
                  """,
                  io.bamel.inventory.model.NodeSpec.class),
          null);
      f.store.createNode(
          "n8",
          Codec.mapper()
              .readValue(
                  """
                  {"mgmtAddress":"https://192.0.2.21","powerInterface":"redfish",
                   "bmcCredentials":"bmc-n8","bmcTls":{"pinnedSha256":
                     "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},
                   "wakeOnLan":{"broadcast":"192.0.2.255","probePort":22,
                     "powerOffCommand":"ssh-poweroff"}}
                  """,
                  io.bamel.inventory.model.NodeSpec.class),
          null);
      f.store.putReadings(
          "n1",
          Codec.mapper()
              .readValue(
                  """
                  {"readAt":"2026-01-02T03:04:05Z","powerWatts":312.5,
                   "temperaturesCelsius":{"inlet":22.5,"cpu0":61.0}}
                  """,
                  NodeReadings.class),
          null);
      long last =
          f.store.putPoolStatus(
              "gpu",
              Codec.mapper()
                  .readValue(
                      """
                      {"readyNodes":1,"pendingNodes":1,"desiredNodes":2,
                       "scalingNodes":[{"node":"n2","action":"power-on",
                         "since":"2026-01-02T03:04:05Z","state":"powering-on",
                         "resources":{"cpu":"64","memory":"512Gi","gpu":"8","storage":"4Ti","custom":{"example.com/fpga":"2"}},"reason":"utilization 0.9 above 0.8"}],
                       "availableResources":{"cpu":"64","memory":"512Gi","gpu":"8","storage":"4Ti","custom":{"example.com/fpga":"2"}},
                       "activeResources":{"cpu":"64","memory":"512Gi","gpu":"8","storage":"4Ti","custom":{"example.com/fpga":"2"}},"pendingResources":{"cpu":"64","memory":"512Gi","gpu":"8","storage":"4Ti","custom":{"example.com/fpga":"2"}},
                       "utilization":{"cpu":0.9},"lastScaleTime":"2026-01-02T03:04:05Z",
                       "conditions":[{"type":"ScalingLimited","status":"False","reason":"none",
                         "message":"ok","lastTransitionTime":"2026-01-02T03:04:05Z"}]}
                      """,
                      PoolStatus.class),
              null);
      f.cache.awaitRevision(last, Duration.ofSeconds(5));

      v.check("GET", "/api/v1/nodes", f.get("/api/v1/nodes"));
      v.check("GET", "/api/v1/nodes", f.get("/api/v1/nodes?limit=1"));
      v.check("GET", "/api/v1/nodes/{id}", f.get("/api/v1/nodes/n1"));
      v.check("GET", "/api/v1/nodes/{id}", f.get("/api/v1/nodes/n7"));
      v.check("GET", "/api/v1/nodes/{id}", f.get("/api/v1/nodes/n8"));
      v.check("GET", "/api/v1/nodes/{id}/status", f.get("/api/v1/nodes/n1/status"));
      v.check("GET", "/api/v1/nodes/{id}/status", f.get("/api/v1/nodes/n2/status"));
      v.check("GET", "/api/v1/nodes/{id}/events", f.get("/api/v1/nodes/n1/events"));
      v.check("GET", "/api/v1/pools", f.get("/api/v1/pools"));
      v.check("GET", "/api/v1/pools/{name}", f.get("/api/v1/pools/gpu"));
      v.check(
          "POST",
          "/api/v1/nodes/{id}/power",
          f.json("POST", "/api/v1/nodes/n2/power", "{\"state\":\"on\"}"));
      v.check(
          "POST",
          "/api/v1/sync",
          f.json(
              "POST",
              "/api/v1/sync?dryRun=true",
              "{\"items\":[{\"id\":\"n3\",\"spec\":{\"serial\":\"SN3\"}},"
                  + "{\"id\":\"n4\",\"spec\":{\"serial\":\"SN1\"}},"
                  + "{\"id\":\"n9\",\"spec\":{\"macAddress\":\"not-a-mac\"}},"
                  + "{\"id\":\"n1\",\"spec\":{\"serial\":\"SN1\",\"rack\":\"r2\"}}]}"));
      v.check("GET", "/healthz", f.get("/healthz"));
      v.check("GET", "/readyz", f.get("/readyz"));
      // Problems: invalid fields, unknown node, conflict, precondition, wrong method, no token.
      v.check("GET", "/api/v1/nodes", f.get("/api/v1/nodes?labelSelector=a%20in%20(b"));
      v.check("GET", "/api/v1/nodes/{id}", f.get("/api/v1/nodes/n404"));
      v.check(
          "PUT", "/api/v1/nodes/{id}", f.json("PUT", "/api/v1/nodes/n5", "{\"serial\":\"SN1\"}"));
      v.check(
          "PATCH",
          "/api/v1/nodes/{id}",
          f.json("PATCH", "/api/v1/nodes/n1", "{\"rack\":\"r9\"}", Map.of("If-Match", "\"1\"")));
      v.check("GET", "/api/v1/nodes", f.get("/api/v1/nodes", null));
      v.check(
          "PUT",
          "/api/v1/nodes/{id}",
          f.send(
              "PUT",
              "/api/v1/nodes/n6",
              ApiFixture.WRITE,
              "application/json",
              "{\"mgmtAddress\":\"192.0.2.9\",\"powerInterface\":\"ipmi\"}"
                  .getBytes(StandardCharsets.UTF_8),
              Map.of()));
      v.check("GET", "/api/v1/sync/netbox/status", f.get("/api/v1/sync/netbox/status"));
      ApiFixture.Response notAllowed =
          f.send("POST", "/api/v1/pools", ApiFixture.ADMIN, null, null, Map.of());
      assertThat(notAllowed.status()).isEqualTo(405);
      assertThat(notAllowed.contentType()).startsWith("application/problem+json");
      v.assertValid("#/components/schemas/Problem", notAllowed.body(), "405");
      // Sessions.
      ApiFixture.Response session = f.signIn(ApiFixture.pasted(ApiFixture.READ), Map.of());
      v.check("POST", "/api/v1/session", session);
      String cookie = session.header("Set-Cookie").split(";", 2)[0];
      v.check(
          "GET",
          "/api/v1/session",
          f.send("GET", "/api/v1/session", null, null, null, Map.of("Cookie", cookie)));

      // The watch: each event's data is a WatchEvent.
      // A last write whose revision is known: the watch reads every change up to it.
      ApiFixture.Response lastWrite =
          f.json("PATCH", "/api/v1/nodes/n1", "{\"labels\":{\"zone\":\"c\"}}");
      v.check("PATCH", "/api/v1/nodes/{id}", lastWrite);
      List<String> events = watch(f, before, lastWrite.json().get("revision").asLong());
      for (String data : events) {
        v.assertValid("#/components/schemas/WatchEvent", data, "watch event");
      }
      assertThat(v.checked()).isGreaterThanOrEqualTo(25);

      // The names the server really sent are today's names (api-fields.golden), no more, no less.
      Set<String> golden = ApiFields.golden();
      Set<String> seen = new java.util.TreeSet<>();
      v.seenFields().values().forEach(seen::addAll);
      List<String> unlisted = new ArrayList<>();
      List<String> unsent = new ArrayList<>();
      for (String root : GOLDEN_ROOTS) {
        Set<String> real = ApiFields.ofRoot(seen, root);
        Set<String> listed = ApiFields.ofRoot(golden, root);
        unlisted.addAll(ApiFieldsGoldenTest.difference(real, listed));
        unsent.addAll(ApiFieldsGoldenTest.difference(listed, real));
      }
      assertThat(unlisted)
          .as(
              "names the server sent that api-fields.golden does not list (a new field: add it;"
                  + " a renamed one needs a new API version)")
          .isEmpty();
      assertThat(unsent)
          .as(
              "names api-fields.golden lists that the server no longer sent: a renamed or removed"
                  + " field needs a new API version, not a refactor")
          .isEmpty();

      // The check itself: a response with a field the document does not describe fails.
      ObjectNode node = (ObjectNode) f.get("/api/v1/nodes/n1").json();
      ((ObjectNode) node.get("status")).put("undescribed", 1);
      assertThat(v.errors("#/components/schemas/Node", node.toString())).isNotEmpty();
      ObjectNode pool = (ObjectNode) f.get("/api/v1/pools/gpu").json();
      ((ObjectNode) pool.get("status")).put("undescribed", 1);
      assertThat(v.errors("#/components/schemas/Pool", pool.toString())).isNotEmpty();
    }
  }

  /** The responses whose every name the scenario above shows, compared with the golden file. */
  private static final List<String> GOLDEN_ROOTS =
      List.of(
          "Node",
          "NodeList",
          "NodeSpec",
          "NodeStatus",
          "NodeHardware",
          "NodeCondition",
          "NodeReadings",
          "NodeEvent",
          "GET /api/v1/nodes/{id}/events 200",
          "Resources",
          "Pool",
          "PoolConfig",
          "NodeTimeouts",
          "ScalingTrigger",
          "PoolStatus",
          "ScalingNode",
          "PoolCondition",
          "GET /api/v1/pools 200",
          "SyncReport",
          "SyncEntry",
          "WatchEvent",
          "WatchNodeEvent",
          "WatchPoolEvent",
          "Problem",
          "FieldError");

  /** The data of the events of a watch from {@code since} up to revision {@code until}. */
  private static List<String> watch(ApiFixture f, long since, long until) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(f.base + "/api/v1/watch?since=" + since))
            .header("Authorization", "Bearer " + ApiFixture.READ)
            .timeout(Duration.ofSeconds(30))
            .build();
    HttpResponse<InputStream> response =
        f.http.send(request, HttpResponse.BodyHandlers.ofInputStream());
    assertThat(response.statusCode()).isEqualTo(200);
    List<String> data = new ArrayList<>();
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      String line;
      long revision = 0;
      while (revision < until && (line = lines.readLine()) != null) {
        if (line.startsWith("id: ")) {
          revision = Long.parseLong(line.substring(4).split("-", 2)[0]);
        } else if (line.startsWith("data: ")) {
          data.add(line.substring(6));
        }
      }
    }
    return data;
  }
}
