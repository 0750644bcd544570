package io.bamel.dcim.netbox;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.model.MacAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Picks a device's boot MAC from its interfaces, as a pure function: the first interface, in
 * NetBox's order (by name, naturally sorted), that is not {@code mgmt_only} (a BMC port) and has a
 * MAC. Where an interface keeps its MAC depends on the NetBox version:
 *
 * <ul>
 *   <li>NetBox 4.2 and later keep MACs as MAC-address objects: the interface's {@code
 *       primary_mac_address} ({@code {id, mac_address, ...}}) when set, else the first of its
 *       {@code mac_addresses} by id, else the read-only {@code mac_address} text NetBox still
 *       shows;
 *   <li>NetBox 3.7 to 4.1 keep one MAC on the interface: {@code mac_address}, a text or null.
 * </ul>
 *
 * A text that is no MAC address is skipped. No interface with a MAC: none.
 */
public final class BootMacs {

  private BootMacs() {}

  /** The boot MAC of a device with {@code interfaces} (NetBox's interface JSON), or null. */
  public static String choose(List<JsonNode> interfaces) {
    for (JsonNode i : interfaces) {
      if (i.path("mgmt_only").asBoolean(false)) {
        continue;
      }
      String mac = of(i);
      if (mac != null) {
        return MacAddress.canonical(mac);
      }
    }
    return null;
  }

  /** The MAC of one interface, or null. */
  static String of(JsonNode i) {
    String primary = valid(i.path("primary_mac_address").path("mac_address"));
    if (primary != null) {
      return primary;
    }
    List<JsonNode> objects = new ArrayList<>();
    i.path("mac_addresses").forEach(objects::add);
    objects.sort(Comparator.comparingLong(o -> o.path("id").asLong(Long.MAX_VALUE)));
    for (JsonNode o : objects) {
      String mac = valid(o.path("mac_address"));
      if (mac != null) {
        return mac;
      }
    }
    return valid(i.path("mac_address"));
  }

  private static String valid(JsonNode v) {
    return v.isTextual() && MacAddress.isValid(v.asText()) ? v.asText() : null;
  }
}
