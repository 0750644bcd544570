package io.bamel.inventory.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.model.FieldError;
import io.bamel.inventory.model.Ids;
import io.bamel.inventory.model.InvalidInputException;
import io.bamel.inventory.model.Labels;
import io.bamel.inventory.model.MacAddress;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeSpecBuilder;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.inventory.model.Texts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Maps the body of NetBox's {@code GET /api/dcim/devices/} ({@code results[]}) to sync items, as a
 * pure function. Per device:
 *
 * <ul>
 *   <li>{@code id} (a positive number) becomes {@code inventoryId} {@code netbox:<id>}; {@code
 *       name} the name, and the node id (lower-cased, other characters replaced by {@code -};
 *       {@code netbox-<id>} without a name);
 *   <li>{@code serial}, {@code asset_tag} (empty is none), {@code site.slug}, {@code rack.name},
 *       {@code position} (whole units), {@code status.value} as label {@code netbox-status};
 *   <li>{@code oob_ip.address} without its prefix length as {@code mgmtAddress};
 *   <li>{@code primary_mac_address} (a string, or an object with {@code mac_address}) as {@code
 *       macAddress};
 *   <li>custom fields for what NetBox has no field for: {@code bamel_pool}, {@code
 *       bamel_power_interface}, {@code bamel_bmc_credentials}, {@code bamel_mgmt_address} (a URL
 *       overriding the OOB IP) and {@code bamel_mac_address}.
 * </ul>
 *
 * <p>NetBox's own fields always apply (null clears); a custom field applies only when the device
 * has it, so a NetBox without bamel's custom fields leaves pools and power settings alone. Fields
 * NetBox does not know (resources, boot profile, other labels) keep their bamel values.
 */
public final class NetBoxDevices {

  static final String STATUS_LABEL = "netbox-status";

  private NetBoxDevices() {}

  /** The items of a NetBox device list. */
  public static List<SyncItem> read(JsonNode body) {
    if (!body.isObject() || !body.path("results").isArray()) {
      throw Problems.invalid("results", "must be the array of NetBox's GET /api/dcim/devices/");
    }
    List<SyncItem> items = new ArrayList<>();
    int index = 0;
    for (JsonNode device : body.get("results")) {
      items.add(item(index++, device));
    }
    return items;
  }

  static SyncItem item(int index, JsonNode device) {
    if (!device.isObject()) {
      return SyncItem.unreadable(index, null, List.of(new FieldError("", "must be an object")));
    }
    List<FieldError> errors = new ArrayList<>();
    JsonNode idNode = device.get("id");
    if (idNode == null
        || !idNode.isIntegralNumber()
        || !idNode.canConvertToLong()
        || idNode.asLong() <= 0) {
      errors.add(new FieldError("id", "must be NetBox's numeric device id, a positive number"));
      idNode = null;
    }
    String name = text(device, "name", errors);
    String nodeId =
        name != null ? nodeId(name) : idNode != null ? "netbox-" + idNode.asText() : null;
    Map<String, Object> fields = new HashMap<>();
    fields.put("inventoryId", idNode == null ? null : "netbox:" + idNode.asText());
    fields.put("name", name);
    fields.put("serial", emptyIsNull(text(device, "serial", errors)));
    fields.put("assetTag", emptyIsNull(text(device, "asset_tag", errors)));
    fields.put("site", nested(device, "site", "slug", "name", errors));
    fields.put("rack", nested(device, "rack", "name", "display", errors));
    fields.put("rackPosition", position(device, errors));
    fields.put("mgmtAddress", oobAddress(device, errors));
    fields.put("macAddress", mac(device.get("primary_mac_address"), "primary_mac_address", errors));
    String status = nested(device, "status", "value", "value", errors);
    JsonNode custom = device.path("custom_fields");
    Map<String, Object> customValues = new HashMap<>();
    if (custom.isObject()) {
      custom(custom, "bamel_pool", "pool", customValues, errors);
      custom(custom, "bamel_power_interface", "powerInterface", customValues, errors);
      custom(custom, "bamel_bmc_credentials", "bmcCredentials", customValues, errors);
      custom(custom, "bamel_mgmt_address", "mgmtAddress", customValues, errors);
      if (custom.has("bamel_mac_address")) {
        customValues.put(
            "macAddress",
            mac(custom.get("bamel_mac_address"), "custom_fields.bamel_mac_address", errors));
      }
    }
    // An empty override falls back to NetBox's own OOB IP and primary MAC.
    for (String fallback : List.of("mgmtAddress", "macAddress")) {
      if (customValues.containsKey(fallback) && customValues.get(fallback) == null) {
        customValues.remove(fallback);
      }
    }
    fields.putAll(customValues);
    PowerInterface powerInterface = null;
    if (fields.get("powerInterface") instanceof String p) {
      try {
        powerInterface = PowerInterface.fromJson(p);
      } catch (InvalidInputException e) {
        errors.add(
            new FieldError("custom_fields.bamel_power_interface", e.errors().get(0).message()));
      }
    }
    if (!errors.isEmpty()) {
      return SyncItem.unreadable(index, nodeId, errors);
    }
    boolean customPower = fields.containsKey("powerInterface");
    PowerInterface pi = powerInterface;
    NodeSpec keys = overlay(NodeSpec.builder(), fields, pi, customPower).build();
    return new SyncItem(
        index,
        nodeId,
        keys,
        current -> {
          NodeSpecBuilder b = current == null ? NodeSpec.builder() : current.toBuilder();
          overlay(b, fields, pi, customPower);
          Map<String, String> labels = new HashMap<>(current == null ? Map.of() : current.labels());
          if (status != null && Labels.isValidValue(status)) {
            labels.put(STATUS_LABEL, status);
          } else {
            labels.remove(STATUS_LABEL);
          }
          return b.labels(labels).build();
        },
        null);
  }

  private static NodeSpecBuilder overlay(
      NodeSpecBuilder b, Map<String, Object> f, PowerInterface pi, boolean customPower) {
    b.inventoryId((String) f.get("inventoryId"))
        .name((String) f.get("name"))
        .serial((String) f.get("serial"))
        .assetTag((String) f.get("assetTag"))
        .site((String) f.get("site"))
        .rack((String) f.get("rack"))
        .rackPosition((Integer) f.get("rackPosition"))
        .mgmtAddress((String) f.get("mgmtAddress"))
        .macAddress((String) f.get("macAddress"));
    if (f.containsKey("pool")) {
      b.pool((String) f.get("pool"));
    }
    if (f.containsKey("bmcCredentials")) {
      b.bmcCredentials((String) f.get("bmcCredentials"));
    }
    if (customPower) {
      b.powerInterface(pi);
    }
    return b;
  }

  /** A node id from a NetBox name: lower case, invalid characters as {@code -}, 63 at most. */
  static String nodeId(String name) {
    String id = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]", "-");
    id = id.replaceAll("\\.{2,}", ".").replaceAll("^[.-]+", "").replaceAll("[.-]+$", "");
    if (id.length() > Ids.MAX_LENGTH) {
      id = id.substring(0, Ids.MAX_LENGTH).replaceAll("[.-]+$", "");
    }
    return id.isEmpty() ? null : id;
  }

  private static String text(JsonNode device, String field, List<FieldError> errors) {
    JsonNode v = device.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isTextual()) {
      errors.add(new FieldError(field, "must be a string"));
      return null;
    }
    return v.asText();
  }

  private static String emptyIsNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }

  private static String nested(
      JsonNode device, String field, String key, String fallback, List<FieldError> errors) {
    JsonNode v = device.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (v.isTextual()) {
      return emptyIsNull(v.asText());
    }
    if (!v.isObject()) {
      errors.add(new FieldError(field, "must be an object"));
      return null;
    }
    JsonNode inner = v.hasNonNull(key) ? v.get(key) : v.get(fallback);
    if (inner == null || inner.isNull()) {
      return null;
    }
    if (!inner.isTextual()) {
      errors.add(new FieldError(field + "." + key, "must be a string"));
      return null;
    }
    return emptyIsNull(inner.asText());
  }

  private static Integer position(JsonNode device, List<FieldError> errors) {
    JsonNode v = device.get("position");
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isNumber() || v.asDouble() < 0 || v.asDouble() > 10_000) {
      errors.add(new FieldError("position", "must be a rack unit from 0 to 10000"));
      return null;
    }
    return (int) Math.floor(v.asDouble());
  }

  private static String oobAddress(JsonNode device, List<FieldError> errors) {
    JsonNode v = device.get("oob_ip");
    if (v == null || v.isNull()) {
      return null;
    }
    JsonNode address = v.isObject() ? v.get("address") : v;
    if (address == null || !address.isTextual()) {
      errors.add(new FieldError("oob_ip.address", "must be a string such as 10.0.0.5/24"));
      return null;
    }
    String text = address.asText();
    int slash = text.indexOf('/');
    String host = slash >= 0 ? text.substring(0, slash) : text;
    return host.contains(":") ? "[" + host + "]" : host;
  }

  private static String mac(JsonNode v, String field, List<FieldError> errors) {
    if (v == null || v.isNull()) {
      return null;
    }
    JsonNode m = v.isObject() ? v.get("mac_address") : v;
    if (m == null || m.isNull() || m.isTextual() && m.asText().isBlank()) {
      return null;
    }
    if (!m.isTextual() || !MacAddress.isValid(m.asText())) {
      errors.add(new FieldError(field, "not a MAC address: " + Texts.quote(m.asText())));
      return null;
    }
    return MacAddress.canonical(m.asText());
  }

  private static void custom(
      JsonNode custom,
      String field,
      String target,
      Map<String, Object> into,
      List<FieldError> errors) {
    if (!custom.has(field)) {
      return;
    }
    JsonNode v = custom.get(field);
    if (v.isNull()) {
      into.put(target, null);
    } else if (v.isTextual()) {
      into.put(target, emptyIsNull(v.asText()));
    } else {
      errors.add(new FieldError("custom_fields." + field, "must be a string"));
    }
  }
}
