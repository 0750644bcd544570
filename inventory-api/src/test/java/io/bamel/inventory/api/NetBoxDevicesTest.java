package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.inventory.store.Codec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NetBoxDevicesTest {

  private static SyncItem one(String device) throws Exception {
    JsonNode body = Codec.mapper().readTree("{\"results\":[" + device + "]}");
    List<SyncItem> items = NetBoxDevices.read(body);
    assertThat(items).hasSize(1);
    return items.get(0);
  }

  @Test
  void mapsADevice() throws Exception {
    SyncItem item =
        one(
            """
            {"id": 42, "name": "R1-U07", "serial": "ABC", "asset_tag": "",
             "site": {"id": 1, "name": "Amsterdam", "slug": "ams1"},
             "rack": {"id": 2, "name": "R1"}, "position": 7.0,
             "status": {"value": "active", "label": "Active"},
             "oob_ip": {"id": 9, "address": "fd00::7/64"},
             "primary_mac_address": {"id": 3, "mac_address": "52:54:00:AA:BB:CC"},
             "custom_fields": {"bamel_pool": "gpu", "bamel_power_interface": "redfish",
                               "bamel_bmc_credentials": "idrac", "other": 1}}
            """);
    assertThat(item.errors()).isEmpty();
    assertThat(item.id()).isEqualTo("r1-u07");
    NodeSpec spec = item.desired().apply(null);
    assertThat(spec.inventoryId()).isEqualTo("netbox:42");
    assertThat(spec.name()).isEqualTo("R1-U07");
    assertThat(spec.serial()).isEqualTo("ABC");
    assertThat(spec.assetTag()).isNull();
    assertThat(spec.site()).isEqualTo("ams1");
    assertThat(spec.rack()).isEqualTo("R1");
    assertThat(spec.rackPosition()).isEqualTo(7);
    assertThat(spec.mgmtAddress()).isEqualTo("[fd00::7]");
    assertThat(spec.macAddress()).isEqualTo("52:54:00:aa:bb:cc");
    assertThat(spec.pool()).isEqualTo("gpu");
    assertThat(spec.powerInterface()).isEqualTo(PowerInterface.REDFISH);
    assertThat(spec.bmcCredentials()).isEqualTo("idrac");
    assertThat(spec.labels()).containsEntry("netbox-status", "active");
    spec.validate();
  }

  @Test
  void keepsWhatNetBoxDoesNotKnowAndCustomFieldsItDoesNotHave() throws Exception {
    SyncItem item = one("{\"id\": 1, \"name\": \"a\", \"serial\": \"S\"}");
    NodeSpec current =
        NodeSpec.builder()
            .pool("cpu")
            .bootProfile("k8s")
            .labels(Map.of("team", "x", "netbox-status", "planned"))
            .rack("old")
            .build();
    NodeSpec next = item.desired().apply(current);
    assertThat(next.pool()).isEqualTo("cpu");
    assertThat(next.bootProfile()).isEqualTo("k8s");
    assertThat(next.labels()).containsEntry("team", "x").doesNotContainKey("netbox-status");
    assertThat(next.rack()).as("NetBox's own fields apply: no rack").isNull();
    assertThat(next.serial()).isEqualTo("S");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"id\":\"x\",\"name\":\"a\"}                      | id",
        "{\"id\":1,\"name\":7}                              | name",
        "{\"id\":1,\"serial\":[]}                           | serial",
        "{\"id\":1,\"position\":-2}                         | position",
        "{\"id\":1,\"oob_ip\":{\"address\":5}}              | oob_ip.address",
        "{\"id\":1,\"primary_mac_address\":\"zz\"}          | primary_mac_address",
        "{\"id\":1,\"custom_fields\":{\"bamel_pool\":3}}    | custom_fields.bamel_pool",
        "{\"id\":1,\"custom_fields\":{\"bamel_power_interface\":\"snmp\"}} | custom_fields.bamel_power_interface",
        "{\"id\":1,\"site\":[]}                             | site",
      })
  void reportsTheNetBoxFieldThatIsWrong(String device, String field) throws Exception {
    assertThat(one(device).errors()).extracting(e -> e.field()).contains(field);
  }

  @ParameterizedTest
  @CsvSource({
    "R1-U07, r1-u07",
    "web_01.example.com, web-01.example.com",
    "--x--, x",
    "a..b, a.b",
    "Ünï, n",
  })
  void derivesNodeIds(String name, String id) {
    assertThat(NetBoxDevices.nodeId(name)).isEqualTo(id);
  }
}
