package io.bamel.dcim.netbox;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.model.FieldError;
import io.bamel.inventory.model.InvalidInputException;
import io.bamel.inventory.model.Labels;
import io.bamel.inventory.model.MacAddress;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeSpecBuilder;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.inventory.model.Texts;
import io.bamel.inventory.sync.DerivedNodeId;
import io.bamel.inventory.sync.IdentityRule;
import io.bamel.inventory.sync.ReservedLabels;
import io.bamel.inventory.sync.SyncInputException;
import io.bamel.inventory.sync.SyncItem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Maps the body of NetBox's {@code GET /api/dcim/devices/} ({@code results[]}) to sync items, as a
 * pure function. Per device:
 *
 * <ul>
 *   <li>{@code id} (a positive number) becomes {@code inventoryId} {@code netbox:<id>}; {@code
 *       name} the name, and the node id ({@link DerivedNodeId}; {@code netbox-<id>} when the name
 *       implies none, when it implies another device's {@code netbox-<n>}, or when the identity
 *       rule gives the name's id to another device, see {@link IdentityRule});
 *   <li>{@code serial}, {@code asset_tag} (empty is none), {@code site.slug}, {@code rack.name},
 *       {@code position} (whole units), {@code status.value} as label {@code netbox-status};
 *   <li>{@code oob_ip.address} without its prefix length as {@code mgmtAddress};
 *   <li>the boot MAC as {@code macAddress}: the MAC the caller read from the device's interfaces
 *       ({@link BootMac}; the NetBox pull), or else a {@code primary_mac_address} on the device
 *       record (a string, or an object with {@code mac_address}) when the record has that key; a
 *       device record of NetBox itself has none, so a MAC not known leaves bamel's as it is;
 *   <li>{@code last_updated} as label {@code netbox-last-updated} (microseconds since the epoch): a
 *       record older than the one a node was last written from leaves the node as it is (a webhook
 *       arriving late), see {@link Freshness};
 *   <li>custom fields for what NetBox has no field for: {@code bamel_pool}, {@code
 *       bamel_power_interface}, {@code bamel_bmc_credentials}, {@code bamel_mgmt_address} (a URL
 *       overriding the OOB IP) and the MAC field ({@code bamel_mac_address} unless configured
 *       otherwise), which overrides the interfaces' MAC.
 * </ul>
 *
 * <p>NetBox's own fields always apply (null clears); a custom field applies only when the device
 * has it, so a NetBox without bamel's custom fields leaves pools and power settings alone. Fields
 * NetBox does not know (resources, boot profile, other labels) keep their bamel values.
 */
public final class NetBoxDevices {

  static final String STATUS_LABEL = "netbox-status";

  /** The label holding the NetBox {@code last_updated} a node was written from, in µs. */
  public static final String LAST_UPDATED_LABEL = ReservedLabels.NETBOX_LAST_UPDATED;

  /** The custom field holding a boot MAC that overrides the interfaces' one, by default. */
  public static final String MAC_FIELD = "bamel_mac_address";

  /** The prefix of the {@code inventoryId} of a node that came from NetBox. */
  public static final String INVENTORY_PREFIX = "netbox:";

  /**
   * The boot MAC a caller found for a device outside its record (the NetBox pull reads the device's
   * interfaces): {@code known} false leaves bamel's MAC as it is; known with a null {@code mac}
   * clears it.
   */
  public record BootMac(boolean known, String mac) {

    /** Nothing is known: bamel's MAC stays. */
    public static final BootMac UNKNOWN = new BootMac(false, null);

    /**
     * A known MAC (canonical form), or known to be none when null.
     *
     * @throws io.bamel.inventory.model.InvalidInputException when {@code mac} is not a MAC
     */
    public static BootMac of(String mac) {
      return new BootMac(true, MacAddress.canonical(mac));
    }
  }

  /**
   * When a record whose {@code last_updated} is not newer than the node's {@link
   * #LAST_UPDATED_LABEL} applies.
   */
  public enum Freshness {
    /**
     * A record as old as the node's applies again (a pull restores NetBox's values); only an older
     * one is ignored.
     */
    SAME_OR_NEWER,
    /** Only a newer record applies (webhooks: a replayed or late event changes nothing). */
    NEWER_ONLY
  }

  /**
   * How {@link #item(int, JsonNode, Options)} reads a device.
   *
   * @param macCustomField the custom field holding a boot MAC
   * @param bootMac the MAC read from the device's interfaces (the pull), or null
   * @param freshness when a record not newer than the stored one applies
   * @param recordsLastUpdated whether {@code last_updated} is written to {@link
   *     #LAST_UPDATED_LABEL} (the NetBox source only)
   */
  public record Options(
      String macCustomField, BootMac bootMac, Freshness freshness, boolean recordsLastUpdated) {

    /**
     * A POSTed export: MAC from the record, the default custom field, same-or-newer; its {@code
     * last_updated} is compared with the stored label but not recorded, since {@link
     * #LAST_UPDATED_LABEL} is reserved to the NetBox source ({@link ReservedLabels}).
     */
    public static final Options EXPORT =
        new Options(MAC_FIELD, null, Freshness.SAME_OR_NEWER, false);

    /** The NetBox source's options: it records {@code last_updated} in its label. */
    public Options(String macCustomField, BootMac bootMac, Freshness freshness) {
      this(macCustomField, bootMac, freshness, true);
    }

    /** Defaults for missing values. */
    public Options {
      macCustomField =
          macCustomField == null || macCustomField.isBlank() ? MAC_FIELD : macCustomField;
      freshness = freshness == null ? Freshness.SAME_OR_NEWER : freshness;
    }
  }

  private NetBoxDevices() {}

  /** The inventoryId of NetBox device {@code id}: {@code netbox:<id>}. */
  public static String inventoryId(long id) {
    return INVENTORY_PREFIX + id;
  }

  /** The NetBox device id of a node's inventoryId, or -1 when it is not one of NetBox's. */
  public static long deviceId(String inventoryId) {
    if (inventoryId == null || !inventoryId.startsWith(INVENTORY_PREFIX)) {
      return -1;
    }
    try {
      long id = Long.parseLong(inventoryId.substring(INVENTORY_PREFIX.length()));
      return id > 0 ? id : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * Why a NetBox list body is not the whole list, or empty when it is: {@code next} or {@code
   * previous} set (one page of several), or {@code count} larger than the results.
   */
  public static java.util.Optional<String> partial(JsonNode body) {
    if (!body.isObject()) {
      return java.util.Optional.empty();
    }
    if (body.hasNonNull("next") && !body.get("next").asText().isEmpty()) {
      return java.util.Optional.of(
          "the NetBox list is one page of several (next is " + quoteUrl(body.get("next")) + ")");
    }
    if (body.hasNonNull("previous") && !body.get("previous").asText().isEmpty()) {
      return java.util.Optional.of(
          "the NetBox list is a later page (previous is " + quoteUrl(body.get("previous")) + ")");
    }
    JsonNode count = body.get("count");
    int results = body.path("results").isArray() ? body.get("results").size() : 0;
    if (count != null && count.canConvertToLong() && count.asLong() > results) {
      return java.util.Optional.of(
          "the NetBox list holds "
              + results
              + " of the "
              + count.asLong()
              + " devices its count says match");
    }
    return java.util.Optional.empty();
  }

  private static String quoteUrl(JsonNode url) {
    String text = url.asText();
    int query = text.indexOf('?');
    return Texts.quote(query >= 0 ? "..." + text.substring(query) : text);
  }

  /**
   * NetBox's {@code last_updated} (such as {@code 2024-05-01T10:00:00.123456Z} or with an offset)
   * in microseconds since the epoch, or null when it is missing or not a time.
   */
  public static Long lastUpdatedMicros(JsonNode value) {
    if (value == null || !value.isTextual()) {
      return null;
    }
    try {
      java.time.Instant t =
          java.time.OffsetDateTime.parse(value.asText().replace(' ', 'T')).toInstant();
      return t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000;
    } catch (java.time.format.DateTimeParseException e) {
      return null;
    }
  }

  /** The {@code last_updated} a node was last written from (its label), or null. */
  public static Long storedLastUpdated(NodeSpec spec) {
    String v = spec == null ? null : spec.labels().get(LAST_UPDATED_LABEL);
    if (v == null) {
      return null;
    }
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The items of a NetBox device list. */
  public static List<SyncItem> read(JsonNode body) {
    if (!body.isObject() || !body.path("results").isArray()) {
      throw new SyncInputException(
          "results", "must be the array of NetBox's GET /api/dcim/devices/");
    }
    List<SyncItem> items = new ArrayList<>();
    int index = 0;
    for (JsonNode device : body.get("results")) {
      items.add(item(index++, device));
    }
    return items;
  }

  static SyncItem item(int index, JsonNode device) {
    return item(index, device, Options.EXPORT);
  }

  /** The sync item of one device record read as {@code options} say. */
  public static SyncItem item(int index, JsonNode device, Options options) {
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
    String fallbackId = idNode == null ? null : fallbackId(idNode.asLong());
    String derived = nodeId(name);
    // netbox-<n> is device n's fallback: another device named so gets its own.
    String nodeId =
        derived != null && (!FALLBACK.matcher(derived).matches() || derived.equals(fallbackId))
            ? derived
            : fallbackId;
    Map<String, Object> fields = new HashMap<>();
    fields.put("inventoryId", idNode == null ? null : "netbox:" + idNode.asText());
    fields.put("name", name);
    fields.put("serial", emptyIsNull(text(device, "serial", errors)));
    fields.put("assetTag", emptyIsNull(text(device, "asset_tag", errors)));
    fields.put("site", nested(device, "site", "slug", "name", errors));
    fields.put("rack", nested(device, "rack", "name", "display", errors));
    fields.put("rackPosition", position(device, errors));
    fields.put("mgmtAddress", oobAddress(device, errors));
    BootMac boot = options.bootMac();
    if (boot == null) {
      boot =
          device.has("primary_mac_address")
              ? BootMac.of(mac(device.get("primary_mac_address"), "primary_mac_address", errors))
              : BootMac.UNKNOWN;
    }
    if (boot.known()) {
      fields.put("macAddress", boot.mac());
    }
    String status = nested(device, "status", "value", "value", errors);
    Long lastUpdated = null;
    if (device.hasNonNull("last_updated")) {
      lastUpdated = lastUpdatedMicros(device.get("last_updated"));
      if (lastUpdated == null) {
        errors.add(
            new FieldError("last_updated", "must be a time such as 2024-05-01T10:00:00.123456Z"));
      }
    }
    JsonNode custom = device.path("custom_fields");
    if (custom.isObject()) {
      custom(custom, "bamel_pool", "pool", fields, errors);
      custom(custom, "bamel_power_interface", "powerInterface", fields, errors);
      custom(custom, "bamel_bmc_credentials", "bmcCredentials", fields, errors);
      // An empty override falls back to NetBox's own OOB IP and boot MAC.
      Map<String, Object> overrides = new HashMap<>();
      custom(custom, "bamel_mgmt_address", "mgmtAddress", overrides, errors);
      String macField = options.macCustomField();
      if (custom.has(macField)) {
        overrides.put("macAddress", mac(custom.get(macField), "custom_fields." + macField, errors));
      }
      overrides.forEach(
          (field, value) -> {
            if (value != null) {
              fields.put(field, value);
            }
          });
    }
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
    Long updated = lastUpdated;
    Freshness freshness = options.freshness();
    return new SyncItem(
        index,
        nodeId,
        keys,
        current -> {
          if (current != null && updated != null && !fresh(current, updated, freshness)) {
            return current;
          }
          NodeSpecBuilder b = current == null ? NodeSpec.builder() : current.toBuilder();
          overlay(b, fields, pi, customPower);
          Map<String, String> labels = new HashMap<>(current == null ? Map.of() : current.labels());
          if (status != null && Labels.isValidValue(status)) {
            labels.put(STATUS_LABEL, status);
          } else {
            labels.remove(STATUS_LABEL);
          }
          if (updated != null && options.recordsLastUpdated()) {
            labels.put(LAST_UPDATED_LABEL, Long.toString(updated));
          }
          return b.labels(labels).build();
        },
        null,
        fallbackId);
  }

  /** Whether a record of {@code lastUpdated} applies to a node holding {@code current}. */
  private static boolean fresh(NodeSpec current, long lastUpdated, Freshness freshness) {
    Long stored = storedLastUpdated(current);
    if (stored == null) {
      return true;
    }
    return freshness == Freshness.NEWER_ONLY ? lastUpdated > stored : lastUpdated >= stored;
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
        .mgmtAddress((String) f.get("mgmtAddress"));
    if (f.containsKey("macAddress")) {
      b.macAddress((String) f.get("macAddress"));
    }
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

  /** A node id from a NetBox name ({@link DerivedNodeId}), or null when it implies none. */
  static String nodeId(String name) {
    return DerivedNodeId.of(name);
  }

  /** The node id of NetBox device {@code id} whose name implies none: {@code netbox-<id>}. */
  public static String fallbackId(long id) {
    return "netbox-" + id;
  }

  private static final java.util.regex.Pattern FALLBACK =
      java.util.regex.Pattern.compile("netbox-[0-9]+");

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
      errors.add(new FieldError("oob_ip.address", "must be a string such as 192.0.2.5/24"));
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
