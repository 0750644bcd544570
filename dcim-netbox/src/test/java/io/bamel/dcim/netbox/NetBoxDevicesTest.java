package io.bamel.dcim.netbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.sync.SyncItem;
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
    assertThat(spec.powerInterface()).isEqualTo(PowerInterface.of("redfish"));
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
    "Ünï, uni",
  })
  void derivesNodeIds(String name, String id) {
    assertThat(NetBoxDevices.nodeId(name)).isEqualTo(id);
  }

  /** One device read as the NetBox source (pull) reads it: it records {@code last_updated}. */
  private static SyncItem pulled(String device) throws Exception {
    return NetBoxDevices.item(
        0,
        Codec.mapper().readTree(device),
        new NetBoxDevices.Options(null, null, NetBoxDevices.Freshness.SAME_OR_NEWER));
  }

  @Test
  void anExportPostedToTheApiComparesLastUpdatedButNeverRecordsIt() throws Exception {
    SyncItem posted =
        one("{\"id\": 5, \"name\": \"a\", \"last_updated\": \"9999-12-31T23:59:59Z\"}");
    assertThat(posted.desired().apply(null).labels()).doesNotContainKey("netbox-last-updated");
    NodeSpec fromSource =
        pulled("{\"id\": 5, \"name\": \"a\", \"last_updated\": \"2024-05-01T10:00:00Z\"}")
            .desired()
            .apply(null);
    SyncItem older =
        one(
            "{\"id\": 5, \"name\": \"a\", \"rack\": \"R1\", \"last_updated\": \"2023-01-01T00:00:00Z\"}");
    assertThat(older.desired().apply(fromSource)).isSameAs(fromSource);
  }

  @Test
  void recordsLastUpdatedAndIgnoresAnOlderRecord() throws Exception {
    SyncItem newer =
        pulled(
            "{\"id\": 5, \"name\": \"a\", \"rack\": \"R2\","
                + " \"last_updated\": \"2024-05-01T10:00:00.000002Z\"}");
    NodeSpec written = newer.desired().apply(null);
    assertThat(written.labels()).containsEntry("netbox-last-updated", "1714557600000002");
    assertThat(NetBoxDevices.storedLastUpdated(written)).isEqualTo(1714557600000002L);

    // A record written earlier in NetBox (a late webhook, an old export) leaves the node alone.
    SyncItem older =
        one(
            "{\"id\": 5, \"name\": \"a\", \"rack\": \"R1\","
                + " \"last_updated\": \"2024-05-01 10:00:00.000001+00:00\"}");
    assertThat(older.desired().apply(written)).isSameAs(written);

    // The same record again: a pull applies it (restoring NetBox's values), a webhook does not.
    JsonNode same =
        Codec.mapper()
            .readTree(
                "{\"id\": 5, \"name\": \"a\", \"rack\": \"R2\","
                    + " \"last_updated\": \"2024-05-01T12:00:00.000002+02:00\"}");
    NodeSpec edited = written.toBuilder().rack("by-hand").build();
    NetBoxDevices.Options pull =
        new NetBoxDevices.Options(null, null, NetBoxDevices.Freshness.SAME_OR_NEWER);
    NetBoxDevices.Options webhook =
        new NetBoxDevices.Options(null, null, NetBoxDevices.Freshness.NEWER_ONLY);
    assertThat(NetBoxDevices.item(0, same, pull).desired().apply(edited).rack()).isEqualTo("R2");
    assertThat(NetBoxDevices.item(0, same, webhook).desired().apply(edited)).isSameAs(edited);
  }

  @Test
  void aMacNotKnownKeepsBamelsAndTheCustomFieldOverridesTheInterfaces() throws Exception {
    JsonNode device =
        Codec.mapper().readTree("{\"id\": 5, \"name\": \"a\", \"custom_fields\": {}}");
    NodeSpec current = NodeSpec.builder().macAddress("52:54:00:00:00:01").build();
    assertThat(NetBoxDevices.item(0, device, NetBoxDevices.Options.EXPORT).desired().apply(current))
        .extracting(NodeSpec::macAddress)
        .isEqualTo("52:54:00:00:00:01");
    NetBoxDevices.Options none =
        new NetBoxDevices.Options(null, NetBoxDevices.BootMac.of(null), null);
    assertThat(NetBoxDevices.item(0, device, none).desired().apply(current).macAddress()).isNull();
    NetBoxDevices.Options fromInterface =
        new NetBoxDevices.Options(null, NetBoxDevices.BootMac.of("52:54:00:00:00:AA"), null);
    assertThat(NetBoxDevices.item(0, device, fromInterface).desired().apply(current).macAddress())
        .isEqualTo("52:54:00:00:00:aa");

    JsonNode custom =
        Codec.mapper()
            .readTree(
                "{\"id\": 5, \"name\": \"a\", \"custom_fields\": {\"boot_mac\":"
                    + " \"52:54:00:00:00:BB\", \"bamel_mac_address\": \"52:54:00:00:00:CC\"}}");
    NetBoxDevices.Options named =
        new NetBoxDevices.Options("boot_mac", NetBoxDevices.BootMac.of("52:54:00:00:00:AA"), null);
    assertThat(NetBoxDevices.item(0, custom, named).desired().apply(null).macAddress())
        .isEqualTo("52:54:00:00:00:bb");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"count\":2,\"next\":null,\"previous\":null,\"results\":[{},{}]} | ",
        "{\"results\":[]}                                                      | ",
        "{\"count\":3,\"next\":null,\"previous\":null,\"results\":[{},{}]} | holds 2 of the 3",
        "{\"count\":null,\"next\":\"https://nb/api/dcim/devices/?limit=2&start=9\",\"results\":[]} | "
            + "one page of several (next is '...?limit=2&start=9')",
        "{\"count\":2,\"next\":null,\"previous\":\"https://nb/api/dcim/devices/?limit=1\",\"results\":[{}]} | "
            + "a later page",
      })
  void tellsAPartialListFromAWholeOne(String body, String why) throws Exception {
    java.util.Optional<String> partial = NetBoxDevices.partial(Codec.mapper().readTree(body));
    if (why == null) {
      assertThat(partial).isEmpty();
    } else {
      assertThat(partial).hasValueSatisfying(p -> assertThat(p).contains(why));
    }
  }

  @Test
  void mapsInventoryIdsBothWays() {
    assertThat(NetBoxDevices.inventoryId(42)).isEqualTo("netbox:42");
    assertThat(NetBoxDevices.deviceId("netbox:42")).isEqualTo(42);
    assertThat(NetBoxDevices.deviceId("netbox:x")).isEqualTo(-1);
    assertThat(NetBoxDevices.deviceId("asset:42")).isEqualTo(-1);
    assertThat(NetBoxDevices.deviceId(null)).isEqualTo(-1);
  }
}
