package io.bamel.dcim.netbox;

import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.ObservedPower;
import io.bamel.inventory.store.Codec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Report-back to WireMock serving NetBox: bulk PATCHes per batch, nothing when unchanged. */
class ReportBackIT extends NetBoxTests {

  private FakeNetBox netbox;
  private NetBoxSource source;

  @BeforeEach
  void start() {
    netbox = startNetBox(FakeNetBox.Version.V4_2);
    netbox.serve(netbox.devices(250), 1000);
    netbox.acceptPatches();
    NetBoxSettings.ReportBack reportBack =
        new NetBoxSettings.ReportBack(
            true, 100, 10, Duration.ofHours(1), "bamel_power", "bamel_state");
    source =
        source(Inventory.settings(netbox.url(), NetBoxSettings.Scope.BMC, true, reportBack, null));
  }

  private List<LoggedRequest> patches() {
    return netbox.server.findAll(patchRequestedFor(urlPathEqualTo("/api/dcim/devices/")));
  }

  private void setStatus(Node node, ObservedPower power, NodeState state) {
    inventory.store.putStatus(
        node.id(),
        node.statusRevision(),
        NodeStatus.builder().state(state).stateSince(Instant.now()).observedPower(power).build(),
        null,
        null);
  }

  @Test
  void sendsOneBulkPatchPerBatchAndNothingWhenUnchanged() throws Exception {
    assertThat(source.cycle().sync().created()).hasSize(250);
    assertThat(patches()).as("nodes without a status are not reported").isEmpty();

    for (Node n : inventory.nodes().values()) {
      setStatus(n, ObservedPower.ON, NodeState.READY);
    }
    inventory.nodes();
    source.reportCycle();
    List<LoggedRequest> sent = patches();
    assertThat(sent).hasSize(3);
    JsonNode first = Codec.mapper().readTree(sent.get(0).getBodyAsString());
    assertThat(first).hasSize(100);
    assertThat(first.get(0).get("id").asLong()).isEqualTo(1);
    assertThat(first.get(0).get("custom_fields").get("bamel_power").asText()).isEqualTo("on");
    assertThat(first.get(0).get("custom_fields").get("bamel_state").asText()).isEqualTo("ready");
    assertThat(first.get(0).size()).as("only id and custom_fields").isEqualTo(2);
    assertThat(Codec.mapper().readTree(sent.get(2).getBodyAsString())).hasSize(50);
    assertThat(sent.get(0).getHeader("Authorization")).isEqualTo("Token " + FakeNetBox.TOKEN);
    assertThat(sent.get(0).getHeader("Content-Type")).startsWith("application/json");
    // At most 10 requests a second: three requests span at least two intervals of 100 ms. The
    // times are when the server logged each request, so one request delayed on a busy machine
    // shortens the gap after it, and the first also carries the connection set-up: the span of
    // the three is measured, with 80 ms of slack (without the limit they arrive within a few ms).
    long span = sent.get(2).getLoggedDate().getTime() - sent.get(0).getLoggedDate().getTime();
    assertThat(span).isGreaterThanOrEqualTo(120);

    source.reportCycle();
    assertThat(patches()).as("unchanged: nothing sent").hasSize(3);

    Node one = inventory.nodes().get("r01-u002");
    setStatus(one, ObservedPower.OFF, NodeState.OFF);
    inventory.nodes();
    source.reportCycle();
    List<LoggedRequest> after = patches();
    assertThat(after).hasSize(4);
    JsonNode last = Codec.mapper().readTree(after.get(3).getBodyAsString());
    assertThat(last).hasSize(1);
    assertThat(last.get(0).get("id").asLong()).isEqualTo(42);
    assertThat(last.get(0).get("custom_fields").get("bamel_power").asText()).isEqualTo("off");
    assertThat(last.get(0).get("custom_fields").get("bamel_state").asText()).isEqualTo("off");

    NetBoxStatus.ReportBack status = source.status().reportBack();
    assertThat(status.enabled()).isTrue();
    assertThat(status.devices()).isEqualTo(251);
    assertThat(status.requests()).isEqualTo(4);
    assertThat(status.lastError()).isNull();
  }

  @Test
  void aFailedPatchIsSentAgainNextRound() throws Exception {
    source.cycle();
    for (Node n : inventory.nodes().values()) {
      setStatus(n, ObservedPower.ON, NodeState.READY);
    }
    inventory.nodes();
    netbox.server.stubFor(
        com.github.tomakehurst.wiremock.client.WireMock.patch(urlPathEqualTo("/api/dcim/devices/"))
            .atPriority(1)
            .inScenario("broken")
            .whenScenarioStateIs(com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED)
            .willSetStateTo("fixed")
            .willReturn(
                com.github.tomakehurst.wiremock.client.WireMock.aResponse()
                    .withStatus(400)
                    .withHeader("Content-Type", "application/json")
                    .withBody("{\"custom_fields\": [\"Unknown field name 'bamel_power'\"]}")));
    source.reportCycle();
    assertThat(patches()).hasSize(1);
    assertThat(source.status().reportBack().lastError()).contains("HTTP 400");
    source.reportCycle();
    assertThat(patches()).hasSize(4);
    assertThat(source.status().reportBack().devices()).isEqualTo(250);
    assertThat(source.status().reportBack().lastError()).isNull();
  }
}
