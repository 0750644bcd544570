package io.bamel.inventory.store;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.inventory.model.ResourceCapacity;
import java.util.Locale;

/** Realistic node specs for store tests and benchmarks. */
public final class TestNodes {

  private TestNodes() {}

  /** The id of node number {@code i}: {@code node-00042}. */
  public static String id(int i) {
    return String.format(Locale.ROOT, "node-%05d", i);
  }

  /** A Redfish node in {@code pool} with a unique serial, MAC and management address. */
  public static NodeSpec spec(int i, String pool) {
    return NodeSpec.builder()
        .name(id(i))
        .inventoryId("dcim-" + i)
        .serial("SN" + (100000 + i))
        .assetTag("AT-" + i)
        .site("dc1")
        .rack("r" + (i % 40))
        .rackPosition(i % 42)
        .pool(pool)
        .mgmtAddress("https://10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255))
        .macAddress(
            String.format(
                Locale.ROOT, "0c:c4:7a:%02x:%02x:%02x", i >> 16 & 255, i >> 8 & 255, i & 255))
        .powerInterface(PowerInterface.of("redfish"))
        .bmcCredentials("bmc-default")
        .resources(ResourceCapacity.of("64", "512Gi", null))
        .desiredPower(DesiredPower.OFF)
        .build();
  }
}
