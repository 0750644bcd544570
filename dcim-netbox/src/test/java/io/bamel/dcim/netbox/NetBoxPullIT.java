package io.bamel.dcim.netbox;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.ObservedPower;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The pull against WireMock serving NetBox's API, into a real etcd. */
class NetBoxPullIT extends NetBoxTests {

  private FakeNetBox netbox;

  private int devicePageRequests() {
    return netbox
        .server
        .countRequestsMatching(
            getRequestedFor(urlPathEqualTo("/api/dcim/devices/"))
                .withQueryParam("brief", absent())
                .build())
        .getCount();
  }

  /** The registry in the Prometheus text format, as Prometheus's own writer renders it. */
  private String metrics() throws java.io.IOException {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    ExpositionFormats.init()
        .getPrometheusTextFormatWriter()
        .write(out, inventory.registry.scrape());
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aSiteOf2345DevicesInPagesOf1000SyncsCompletelyAndAgainWritesNothing() throws Exception {
    netbox = startNetBox(FakeNetBox.Version.V4_2);
    netbox.serve(netbox.devices(2345), 1000);
    NetBoxSource s = source(Inventory.settings(netbox));

    PullReport first = s.cycle();
    assertThat(first.errors()).isEmpty();
    assertThat(first.complete()).isTrue();
    assertThat(first.paging()).isEqualTo("offset");
    assertThat(first.netboxVersion()).isEqualTo("4.2");
    assertThat(first.devices()).isEqualTo(2345);
    assertThat(first.sync().created()).hasSize(2345);
    assertThat(first.sync().rejected()).isEmpty();
    assertThat(devicePageRequests()).isEqualTo(3);
    assertThat(
            netbox
                .server
                .countRequestsMatching(
                    getRequestedFor(urlPathEqualTo("/api/dcim/interfaces/")).build())
                .getCount())
        .isEqualTo(24);
    // bamel followed the next links on its own NetBox address, never the host NetBox named.
    assertThat(netbox.server.getAllServeEvents())
        .allSatisfy(
            e ->
                assertThat(e.getRequest().getHeader("Authorization"))
                    .isEqualTo("Token " + FakeNetBox.TOKEN));

    Map<String, Node> nodes = inventory.nodes();
    assertThat(nodes).hasSize(2345);
    Node n = nodes.get("r00-u007");
    assertThat(n.spec().inventoryId()).isEqualTo("netbox:7");
    assertThat(n.spec().serial()).isEqualTo("SN000007");
    assertThat(n.spec().mgmtAddress()).isEqualTo("[2001:db8::7]");
    assertThat(n.spec().macAddress()).isEqualTo(FakeNetBox.mac(7, 1).toLowerCase());
    assertThat(n.spec().site()).isEqualTo("ams1");
    assertThat(n.spec().rack()).isEqualTo("R0");
    assertThat(n.spec().rackPosition()).isEqualTo(8);
    assertThat(n.spec().pool()).isEqualTo("compute");
    assertThat(n.spec().labels())
        .containsEntry("netbox-status", "active")
        .containsEntry("netbox-last-updated", "1709283600123456");

    long before = inventory.revision();
    PullReport again = s.cycle();
    assertThat(again.complete()).isTrue();
    assertThat(again.sync().unchanged()).hasSize(2345);
    assertThat(again.sync().created()).isEmpty();
    assertThat(again.sync().updated()).isEmpty();
    assertThat(inventory.revision()).as("an unchanged re-pull writes nothing").isEqualTo(before);

    NetBoxStatus status = s.status();
    assertThat(status.leader()).isTrue();
    assertThat(status.lastPull().complete()).isTrue();
    assertThat(status.lastPull().unchanged()).isEqualTo(2345);
    assertThat(status.lastCompletePull()).isEqualTo(again.finished());
    assertThat(metrics())
        .contains("bamel_netbox_pulls_total{result=\"complete\"} 2.0")
        .contains("bamel_netbox_last_pull_devices 2345.0")
        .contains("bamel_netbox_last_pull_nodes{change=\"unchanged\"} 2345.0");
  }

  @Test
  void aPullInterruptedOnPage2PrunesNothingAndACompleteOneDoes() throws Exception {
    netbox = startNetBox(FakeNetBox.Version.V4_2);
    List<ObjectNode> all = netbox.devices(2345);
    netbox.serve(all, 1000);
    NetBoxSource s = source(Inventory.settings(netbox));
    assertThat(s.cycle().sync().created()).hasSize(2345);
    // Device 2000 is on: a prune never removes it.
    Node on = inventory.nodes().get("r50-u000");
    inventory.store.putStatus(
        on.id(),
        on.statusRevision(),
        NodeStatus.builder()
            .state(NodeState.READY)
            .stateSince(Instant.now())
            .observedPower(ObservedPower.ON)
            .build(),
        null,
        null);

    // NetBox now lists 1,100 devices only (1,245 were deleted), and its page 2 fails.
    netbox.server.resetAll();
    List<ObjectNode> fewer = new ArrayList<>(all.subList(0, 1100));
    netbox.serve(fewer, 1000);
    netbox.stubFor(
        netbox.devicePage(1, 1001, 1000).atPriority(1),
        aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER));
    long before = inventory.revision();
    PullReport interrupted = s.cycle();
    assertThat(interrupted.complete()).isFalse();
    assertThat(interrupted.devices()).isEqualTo(1000);
    assertThat(interrupted.errors())
        .singleElement()
        .asString()
        .contains("stopped after 1000 devices")
        .contains("nothing is pruned");
    assertThat(interrupted.sync().deleted()).isEmpty();
    assertThat(interrupted.sync().unchanged()).hasSize(1000);
    assertThat(inventory.revision()).isEqualTo(before);
    assertThat(inventory.nodes()).hasSize(2345);
    assertThat(s.status().lastPull().complete()).isFalse();
    assertThat(metrics()).contains("bamel_netbox_pulls_total{result=\"incomplete\"} 1.0");

    // The dry run of a complete pull lists exactly what the real one then does.
    netbox.server.resetAll();
    netbox.serve(fewer, 1000);
    PullReport plan = s.dryRun();
    assertThat(plan.complete()).isTrue();
    assertThat(plan.sync().deleted()).hasSize(1244);
    assertThat(plan.sync().rejected())
        .singleElement()
        .satisfies(r -> assertThat(r.reason()).isEqualTo("not pruned: the node is on"));
    assertThat(inventory.revision()).isEqualTo(before);
    PullReport complete = s.cycle();
    assertThat(complete.complete()).isTrue();
    assertThat(complete.sync().deleted()).isEqualTo(plan.sync().deleted());
    assertThat(inventory.nodes()).hasSize(1101).containsKey("r50-u000");
  }

  @Test
  void aDeviceNetBoxStillListsIsNotPruned() throws Exception {
    netbox = startNetBox(FakeNetBox.Version.V4_2);
    List<ObjectNode> all = netbox.devices(30);
    netbox.serve(all, 10);
    NetBoxSource s = source(Inventory.settings(netbox));
    assertThat(s.cycle().sync().created()).hasSize(30);
    // Device 12 moved between offset pages while they were read: the listing missed it, but
    // NetBox still has it when asked by id.
    netbox.server.resetAll();
    List<ObjectNode> missing = new ArrayList<>(all);
    missing.remove(11);
    netbox.serve(missing, 10);
    ObjectNode listed = netbox.device(12);
    ObjectNode body = io.bamel.inventory.store.Codec.mapper().createObjectNode();
    body.put("count", 1).putNull("next").putNull("previous").putArray("results").add(listed);
    netbox.stubFor(
        get(urlPathEqualTo("/api/dcim/devices/"))
            .withQueryParam("brief", equalTo("1"))
            .withQueryParam("id", equalTo("12"))
            .atPriority(1),
        netbox.ok(body));
    PullReport r = s.cycle();
    assertThat(r.complete()).isTrue();
    assertThat(r.sync().deleted()).isEmpty();
    assertThat(r.sync().rejected())
        .singleElement()
        .satisfies(e -> assertThat(e.reason()).contains("NetBox lists its device again"));
    assertThat(inventory.nodes()).hasSize(30);
  }

  @ParameterizedTest
  @EnumSource(FakeNetBox.Version.class)
  void readsEachNetBoxVersionsShapes(FakeNetBox.Version version) throws Exception {
    netbox = startNetBox(version);
    List<ObjectNode> devices = netbox.devices(25);
    netbox.serve(devices, 10);
    PullReport r = source(Inventory.settings(netbox)).cycle();
    assertThat(r.errors()).isEmpty();
    assertThat(r.complete()).isTrue();
    assertThat(r.paging()).isEqualTo(version.cursor ? "cursor" : "offset");
    assertThat(r.netboxVersion()).isEqualTo(version.api);
    assertThat(r.sync().created()).hasSize(25);
    assertThat(devicePageRequests()).isEqualTo(3);
    Map<String, Node> nodes = inventory.nodes();
    for (long id = 1; id <= 25; id++) {
      Node n = nodes.get(devices.get((int) id - 1).get("name").asText());
      assertThat(n.spec().inventoryId()).isEqualTo("netbox:" + id);
      assertThat(n.spec().macAddress()).isEqualTo(FakeNetBox.mac(id, 1).toLowerCase());
    }
  }

  @Test
  void writeScopeRejectsDevicesSettingAnOobIpAndTakesTheRest() throws Exception {
    netbox = startNetBox(FakeNetBox.Version.V4_2);
    List<ObjectNode> devices = netbox.devices(6);
    for (int i = 0; i < 3; i++) {
      devices.get(i).putNull("oob_ip");
    }
    netbox.serve(devices, 10);
    PullReport r =
        source(
                Inventory.settings(
                    netbox.url(),
                    NetBoxSettings.Scope.WRITE,
                    true,
                    NetBoxSettings.ReportBack.OFF,
                    null))
            .cycle();
    assertThat(r.sync().created()).hasSize(3);
    assertThat(r.sync().rejected())
        .hasSize(3)
        .allSatisfy(
            e -> assertThat(e.reason()).contains("lacks scope bmc").contains("mgmtAddress"));
    assertThat(inventory.nodes()).hasSize(3);
  }

  @Test
  void aRefusedTokenChangesNothingAndSaysSo() throws Exception {
    netbox = startNetBox(FakeNetBox.Version.V4_2);
    netbox.serve(netbox.devices(5), 10);
    NetBoxSource s = source(Inventory.settings(netbox));
    s.cycle();
    long before = inventory.revision();
    netbox.stubFor(
        get(urlPathEqualTo("/api/dcim/devices/")).atPriority(1),
        aResponse()
            .withStatus(403)
            .withHeader("Content-Type", "application/json")
            .withBody("{\"detail\": \"Invalid v1 token\"}"));
    PullReport r = s.cycle();
    assertThat(r.sync()).isNull();
    assertThat(r.complete()).isFalse();
    assertThat(r.errors())
        .singleElement()
        .asString()
        .contains("NetBox refused the token (HTTP 403: Invalid v1 token)")
        .contains("netbox.tokenFile")
        .doesNotContain(FakeNetBox.TOKEN);
    assertThat(inventory.revision()).isEqualTo(before);
    assertThat(inventory.nodes()).hasSize(5);
    // One try: a refused token is not retried.
    assertThat(
            netbox
                .server
                .countRequestsMatching(
                    getRequestedFor(urlPathEqualTo("/api/dcim/devices/"))
                        .withQueryParam("offset", absent())
                        .build())
                .getCount())
        .isEqualTo(2);
    assertThat(s.status().lastPull().errors()).isEqualTo(r.errors());
    assertThat(metrics()).contains("bamel_netbox_pulls_total{result=\"failed\"} 1.0");
  }

  @Test
  void a429IsRetriedAfterItsRetryAfter() throws Exception {
    netbox = startNetBox(FakeNetBox.Version.V4_2);
    List<ObjectNode> devices = netbox.devices(5);
    netbox.serve(devices, 10);
    netbox.stubFor(
        netbox
            .devicePage(0, 1, 10)
            .atPriority(1)
            .inScenario("limited")
            .whenScenarioStateIs(Scenario.STARTED)
            .willSetStateTo("waited"),
        aResponse()
            .withStatus(429)
            .withHeader("Retry-After", "1")
            .withHeader("Content-Type", "application/json")
            .withBody("{\"detail\": \"Request was throttled.\"}"));
    long t0 = System.nanoTime();
    PullReport r = source(Inventory.settings(netbox)).cycle();
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertThat(r.errors()).isEmpty();
    assertThat(r.complete()).isTrue();
    assertThat(r.sync().created()).hasSize(5);
    assertThat(ms).as("waited for Retry-After").isGreaterThanOrEqualTo(1000);
    assertThat(devicePageRequests()).isEqualTo(2);
  }
}
