package io.bamel.dcim.netbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.inventory.sync.SyncItem;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fields a pull asks NetBox for ({@link DevicePull#DEVICE_FIELDS}) are every field its mapping
 * reads: a device NetBox 4 trims to them maps exactly as the whole device does, for NetBox's own
 * device shapes of each version and for the adversarial fleet (odd names, duplicates, custom fields
 * that override, missing and hostile values).
 */
class DeviceFieldsTest {

  private static final List<String> FIELDS = Arrays.asList(DevicePull.DEVICE_FIELDS.split(","));

  private static final NetBoxDevices.Options PULL =
      new NetBoxDevices.Options(
          "bamel_mac_address",
          NetBoxDevices.BootMac.of("52:54:00:00:00:01"),
          NetBoxDevices.Freshness.SAME_OR_NEWER);

  @Test
  void aTrimmedDeviceMapsAsTheWholeOne() {
    List<ObjectNode> devices = new ArrayList<>();
    for (FakeNetBox.Version version : FakeNetBox.Version.values()) {
      try (FakeNetBox netbox = new FakeNetBox(version)) {
        devices.addAll(netbox.devices(3));
        if (version == FakeNetBox.Version.V4_2) {
          devices.addAll(new AdversarialFleet(netbox, 7).generate(300).byId());
        }
      }
    }
    ObjectNode overrides = devices.get(0).deepCopy();
    overrides
        .withObject("custom_fields")
        .put("bamel_pool", "gpu")
        .put("bamel_power_interface", "ipmi")
        .put("bamel_bmc_credentials", "ipmi-admin")
        .put("bamel_mgmt_address", "192.0.2.7")
        .put("bamel_mac_address", "52:54:00:00:00:aa");
    overrides.put("asset_tag", "AT-1").put("serial", "");
    devices.add(overrides);
    ObjectNode withoutOptional = devices.get(1).deepCopy();
    withoutOptional.putNull("rack").putNull("position").putNull("oob_ip").remove("last_updated");
    devices.add(withoutOptional);

    int mapped = 0;
    for (ObjectNode whole : devices) {
      ObjectNode trimmed = whole.deepCopy().retain(FIELDS);
      SyncItem a = NetBoxDevices.item(0, whole, PULL);
      SyncItem b = NetBoxDevices.item(0, trimmed, PULL);
      assertThat(b.id()).as("node id of %s", whole.path("name")).isEqualTo(a.id());
      assertThat(b.errors()).as("errors of %s", whole.path("name")).isEqualTo(a.errors());
      if (a.errors().isEmpty()) {
        assertThat(b.desired().apply(null))
            .as("spec of %s", whole.path("name"))
            .isEqualTo(a.desired().apply(null));
        mapped++;
      }
    }
    assertThat(mapped).as("devices that map to a node").isGreaterThan(200);
  }
}
