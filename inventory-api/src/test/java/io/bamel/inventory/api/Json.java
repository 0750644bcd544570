package io.bamel.inventory.api;

import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.store.Codec;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** Test data as JSON text. */
public final class Json {

  private Json() {}

  /** The JSON of a value. */
  public static String of(Object value) {
    return new String(Codec.encode(value), StandardCharsets.UTF_8);
  }

  /** A Redfish node spec number {@code i} in {@code pool}, with unique serial, MAC and address. */
  public static NodeSpec spec(int i, String pool) {
    return NodeSpec.builder()
        .name("node " + i)
        .inventoryId("dcim-" + i)
        .serial("SN" + (100000 + i))
        .site("dc1")
        .rack("r" + (i % 4))
        .rackPosition(i % 42)
        .pool(pool)
        .mgmtAddress("https://[2001:db8::1:" + (i >> 8 & 255) + ":" + (i & 255) + "]")
        .macAddress(String.format(Locale.ROOT, "0c:c4:7a:00:%02x:%02x", i >> 8 & 255, i & 255))
        .powerInterface(io.bamel.inventory.model.PowerInterface.of("redfish"))
        .bmcCredentials("bmc-default")
        .build();
  }

  public static String id(int i) {
    return String.format(Locale.ROOT, "n%03d", i);
  }
}
