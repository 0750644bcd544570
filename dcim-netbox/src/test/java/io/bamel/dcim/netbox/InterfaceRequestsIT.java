package io.bamel.dcim.netbox;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.testing.EtcdExtension;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The interface requests of a pull, several in flight at once and started as their devices' page
 * arrives: a chunk that fails leaves only its own devices' MACs unknown, and the failures are
 * reported in chunk order, whatever order the requests end in.
 */
class InterfaceRequestsIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  private Inventory inventory;
  private FakeNetBox netbox;
  private NetBoxSource source;

  @AfterEach
  void stop() {
    if (source != null) {
      source.close();
    }
    if (netbox != null) {
      netbox.close();
    }
    if (inventory != null) {
      inventory.close();
    }
  }

  /** Makes the interface request of the chunk that starts with device {@code firstId} fail. */
  private void failChunk(long firstId, int status) {
    netbox.server.stubFor(
        get(urlPathEqualTo("/api/dcim/interfaces/"))
            .withQueryParam("device_id", equalTo(Long.toString(firstId)))
            .atPriority(1)
            .willReturn(aResponse().withStatus(status)));
  }

  @Test
  void aFailedChunkLeavesOnlyItsDevicesMacsUnknownAndFailuresComeInChunkOrder() throws Exception {
    inventory = new Inventory(ETCD.cluster());
    netbox = new FakeNetBox(FakeNetBox.Version.V4_2);
    netbox.serve(netbox.devices(2345), 1000);
    // The later chunk fails at once; the earlier one is slow, so it ends after the later one.
    failChunk(1901, 400);
    netbox.server.stubFor(
        get(urlPathEqualTo("/api/dcim/interfaces/"))
            .withQueryParam("device_id", equalTo("201"))
            .atPriority(1)
            .willReturn(aResponse().withStatus(404).withFixedDelay(500)));
    source = inventory.source(Inventory.settings(netbox));

    PullReport pull = source.cycle();

    assertThat(pull.complete()).as("interfaces never make the device listing incomplete").isTrue();
    assertThat(pull.errors()).hasSize(2);
    assertThat(pull.errors().get(0)).contains("interfaces of 100 devices").contains("404");
    assertThat(pull.errors().get(1)).contains("interfaces of 100 devices").contains("400");
    assertThat(pull.sync().created()).hasSize(2345);
    Map<Long, Node> byNetBoxId = new java.util.HashMap<>();
    inventory
        .nodes()
        .values()
        .forEach(n -> byNetBoxId.put(Long.parseLong(n.spec().inventoryId().substring(7)), n));
    assertThat(byNetBoxId.get(201L).spec().macAddress()).isNull();
    assertThat(byNetBoxId.get(300L).spec().macAddress()).isNull();
    assertThat(byNetBoxId.get(1950L).spec().macAddress()).isNull();
    assertThat(byNetBoxId.get(200L).spec().macAddress())
        .isEqualTo(FakeNetBox.mac(200, 1).toLowerCase());
    assertThat(byNetBoxId.get(301L).spec().macAddress())
        .isEqualTo(FakeNetBox.mac(301, 1).toLowerCase());
    assertThat(byNetBoxId.get(2345L).spec().macAddress())
        .isEqualTo(FakeNetBox.mac(2345, 1).toLowerCase());
  }

  @Test
  void theFirstPagesInterfacesAreRequestedWhileTheNextDevicePageIsStillBeingServed()
      throws Exception {
    inventory = new Inventory(ETCD.cluster());
    netbox = new FakeNetBox(FakeNetBox.Version.V4_2);
    int delayMillis = 3000;
    netbox.pageDelayMillis.put(1, delayMillis);
    netbox.serve(netbox.devices(2500), 1000);
    source = inventory.source(Inventory.settings(netbox));

    PullReport pull = source.cycle();

    assertThat(pull.complete()).isTrue();
    assertThat(pull.errors()).isEmpty();
    assertThat(pull.sync().created()).hasSize(2500);
    List<ServeEvent> served = netbox.server.getAllServeEvents();
    ServeEvent secondPage =
        served.stream()
            .filter(e -> e.getRequest().getUrl().startsWith("/api/dcim/devices/"))
            .filter(e -> e.getRequest().queryParameter("offset").isPresent())
            .filter(e -> "1000".equals(e.getRequest().queryParameter("offset").firstValue()))
            .findFirst()
            .orElseThrow();
    ServeEvent firstChunk =
        served.stream()
            .filter(e -> e.getRequest().getUrl().startsWith("/api/dcim/interfaces/?device_id=1&"))
            .findFirst()
            .orElseThrow();
    ServeEvent lastChunk =
        served.stream()
            .filter(
                e -> e.getRequest().getUrl().startsWith("/api/dcim/interfaces/?device_id=2401&"))
            .findFirst()
            .orElseThrow();
    long secondPageAnswered = secondPage.getRequest().getLoggedDate().getTime() + delayMillis;
    assertThat(firstChunk.getRequest().getLoggedDate().getTime())
        .as("the first page's interfaces are asked for before the second page is answered")
        .isLessThan(secondPageAnswered);
    assertThat(lastChunk.getRequest().getLoggedDate().getTime())
        .as("the last page's interfaces only once that page was read")
        .isGreaterThanOrEqualTo(secondPageAnswered);
  }
}
