package io.bamel.dcim.netbox;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeStatus;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Decides report-back, as pure functions: what NetBox holds in the two custom fields ({@link
 * #known}, read from the devices a pull listed) and which devices need a new value ({@link
 * #changes}): a node from NetBox ({@code netbox:<id>}) whose device the last pull read, whose
 * observed power state ({@code on}, {@code off}, {@code unknown}) or lifecycle state ({@code
 * ready}, {@code off}, ...) differs from NetBox's. A device NetBox's values are not known of (not
 * read yet) is left alone, and so is a node without a status.
 */
final class ReportBackPlan {

  /** A device's two values. */
  record Values(String power, String state) {}

  /** One device to patch. */
  record Change(long device, Values values) {}

  private ReportBackPlan() {}

  /** NetBox's values of {@code devices}, by device id; a missing or empty field is null. */
  static Map<Long, Values> known(List<JsonNode> devices, String powerField, String stateField) {
    Map<Long, Values> out = new HashMap<>();
    for (JsonNode d : devices) {
      long id = d.path("id").asLong(0);
      if (id > 0) {
        JsonNode cf = d.path("custom_fields");
        out.put(id, new Values(text(cf.get(powerField)), text(cf.get(stateField))));
      }
    }
    return out;
  }

  private static String text(JsonNode v) {
    return v == null || !v.isTextual() || v.asText().isEmpty() ? null : v.asText();
  }

  /** The devices whose values differ from {@code known}, by device id. */
  static List<Change> changes(Collection<Node> nodes, Map<Long, Values> known) {
    List<Change> out = new ArrayList<>();
    for (Node n : nodes) {
      long id = NetBoxDevices.deviceId(n.spec().inventoryId());
      NodeStatus s = n.status();
      if (id <= 0 || s == null || !known.containsKey(id)) {
        continue;
      }
      Values now =
          new Values(
              s.observedPower() == null ? null : s.observedPower().json(),
              s.state() == null ? null : s.state().json());
      if (now.power() == null && now.state() == null) {
        continue;
      }
      if (!Objects.equals(now, known.get(id))) {
        out.add(new Change(id, now));
      }
    }
    out.sort((a, b) -> Long.compare(a.device(), b.device()));
    return out;
  }
}
