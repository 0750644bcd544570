package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.power.spi.PowerCapabilities;
import io.bamel.power.spi.PowerInterfaceType;
import io.bamel.power.spi.PowerInterfaceTypes;
import java.util.Map;
import org.immutables.value.Value;

/**
 * The inventory record of one machine: hardware, location, how its power is driven, and the desired
 * power state. Stored at {@code /baremetal/nodes/{id}/spec}.
 *
 * <p>Field ownership (docs/architecture.md): DCIM and the API own the hardware and location fields;
 * the pool controller owns {@code powerState} ({@link #desiredPower}) when {@code powerPolicy} is
 * {@code pool}, operators when it is {@code manual}. {@code bmcCredentials} names a credential in
 * the credential store, never a secret.
 *
 * <p>Each power interface's settings ({@code ipmi}, {@code wakeOnLan}, {@code proxmox}, any
 * registered later: {@link PowerInterfaceType#settingsField()}) are opaque to the model: kept as
 * the JSON that came, null members dropped, among {@code extensions} ({@link #settings(String)}),
 * and checked by their interface ({@link PowerInterfaceType#checkSettings}) in {@link #validate}.
 * The model never looks inside them; an interface's package reads them into its own settings type.
 * Other fields this version does not know are kept in {@code extensions} too and written back.
 * Written, the settings sit right after {@code bmcTls}, sorted by name ({@code ipmi}, {@code
 * proxmox}, {@code wakeOnLan}), where the typed fields used to be, so the stored bytes did not
 * change when they stopped being typed. {@link #withSettings} sets one interface's settings; {@link
 * #withUnknownFields} replaces the unknown fields and never touches the settings.
 */
@Value.Builder
@JsonPropertyOrder({
  "name",
  "inventoryId",
  "serial",
  "assetTag",
  "site",
  "rack",
  "rackPosition",
  "pool",
  "mgmtAddress",
  "macAddress",
  "powerInterface",
  "bmcCredentials",
  "bmcTls",
  "extensions"
})
public record NodeSpec(
    String name,
    String inventoryId,
    String serial,
    String assetTag,
    String site,
    String rack,
    Integer rackPosition,
    String pool,
    String mgmtAddress,
    String macAddress,
    PowerInterface powerInterface,
    String bmcCredentials,
    BmcTls bmcTls,
    String bootProfile,
    ResourceCapacity resources,
    @JsonProperty("powerState") DesiredPower desiredPower,
    PowerPolicy powerPolicy,
    String kubernetesNodeName,
    Map<String, String> labels,
    Boolean maintenance,
    Double idlePowerWatts,
    @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  /** Longest free-text field (serial, rack, site, ...). */
  public static final int MAX_TEXT = 256;

  /**
   * Canonicalises the MAC address, copies maps and normalises missing ones to empty; turns each
   * power interface's settings into JSON (an unset or null one is dropped). The fields a fleet
   * repeats (site, rack, pool, credential name, boot profile) are interned, so that a cache of
   * 100,000 nodes holds each distinct value once (the JVM's string table holds them weakly).
   */
  public NodeSpec {
    if (macAddress != null && MacAddress.isValid(macAddress)) {
      macAddress = MacAddress.canonical(macAddress);
    }
    site = shared(site);
    rack = shared(rack);
    pool = shared(pool);
    bmcCredentials = shared(bmcCredentials);
    bootProfile = shared(bootProfile);
    labels = Copies.map("labels", labels);
    extensions = Extensions.copy(PowerSettings.asJson(extensions));
  }

  /**
   * The JSON of the power interface settings field {@code field} ({@code ipmi}, {@code wakeOnLan},
   * ...), or {@code null} when unset. Opaque to the model: the interface's package reads it into
   * its own type.
   */
  public JsonNode settings(String field) {
    return extensions.get(field) instanceof JsonNode json
            && PowerInterfaceTypes.bySettingsField(field).isPresent()
        ? json
        : null;
  }

  /**
   * The fields this version does not know: the extensions without the power interfaces' settings
   * fields (which it knows, opaque as they are).
   */
  @JsonIgnore
  public Map<String, Object> unknownFields() {
    Map<String, Object> unknown = new java.util.LinkedHashMap<>(extensions);
    unknown.keySet().removeIf(field -> PowerInterfaceTypes.bySettingsField(field).isPresent());
    return java.util.Collections.unmodifiableMap(unknown);
  }

  /**
   * This spec with the power interface settings field {@code field} ({@code ipmi}, {@code
   * wakeOnLan}, ...: the interface's {@code settingsField()}) set to {@code value}, its settings
   * record (such as {@code io.bamel.power.ipmi.IpmiSettings}), a map or JSON; {@code null} removes
   * it. The spec keeps it as JSON, opaque to the model, among its extensions.
   */
  public NodeSpec withSettings(String field, Object value) {
    return toBuilder().extensions(PowerSettings.with(extensions, field, value)).build();
  }

  /**
   * This spec with the fields this version does not know replaced by those of {@code unknown}. The
   * power interfaces' settings fields, kept among the extensions too, are known fields: those of
   * {@code unknown} are ignored and this spec's stay (set them with {@link #withSettings}), so that
   * "keep the unknown fields of the stored spec" never brings back its old settings.
   */
  public NodeSpec withUnknownFields(Map<String, Object> unknown) {
    return toBuilder().extensions(PowerSettings.keepingSettings(extensions, unknown)).build();
  }

  private static String shared(String text) {
    return text == null || text.length() > MAX_TEXT ? text : text.intern();
  }

  /**
   * A builder starting from nothing; {@link NodeSpecBuilder} is generated (see the package), and
   * its {@code build()} runs this record's constructor. Its {@code extensions} setter sets the
   * extensions whole, the settings among them: to change one interface's settings or only the
   * unknown fields, use {@link #withSettings} or {@link #withUnknownFields} on the built spec.
   */
  public static NodeSpecBuilder builder() {
    return new NodeSpecBuilder();
  }

  /** A builder starting from this spec. */
  public NodeSpecBuilder toBuilder() {
    return new NodeSpecBuilder().from(this);
  }

  /** The desired power state, {@code off} when unset. */
  @JsonIgnore
  public DesiredPower desiredPowerOrOff() {
    return desiredPower == null ? DesiredPower.OFF : desiredPower;
  }

  /** The power policy, {@code pool} when unset and the node has a pool, else {@code manual}. */
  @JsonIgnore
  public PowerPolicy effectivePowerPolicy() {
    if (powerPolicy != null) {
      return powerPolicy;
    }
    return pool == null ? PowerPolicy.MANUAL : PowerPolicy.POOL;
  }

  /** Whether power actions on this node are suspended. */
  @JsonIgnore
  public boolean inMaintenance() {
    return Boolean.TRUE.equals(maintenance);
  }

  /** The capacity, never {@code null}. */
  @JsonIgnore
  public ResourceCapacity capacity() {
    return resources == null ? ResourceCapacity.NONE : resources;
  }

  /**
   * Checks every field and reports all problems at once.
   *
   * @throws InvalidInputException listing every invalid field
   */
  public NodeSpec validate() {
    Validator v = new Validator();
    validate(v);
    v.throwIfInvalid();
    return this;
  }

  /** Checks every field, recording problems in {@code v}. */
  public void validate(Validator v) {
    text(v, "name", name);
    text(v, "inventoryId", inventoryId);
    text(v, "serial", serial);
    text(v, "assetTag", assetTag);
    text(v, "site", site);
    text(v, "rack", rack);
    text(v, "bootProfile", bootProfile);
    // Empty or spaces: none given (the node controller then uses the name or the id).
    if (kubernetesNodeName != null && !kubernetesNodeName.chars().allMatch(c -> c == ' ')) {
      String problem = DnsNames.nodeNameProblem(kubernetesNodeName);
      v.check(problem == null, "kubernetesNodeName", problem);
    }
    v.check(rackPosition == null || rackPosition >= 0, "rackPosition", "must not be negative");
    if (pool != null) {
      String problem = Ids.problem(pool);
      v.check(problem == null, "pool", problem);
    }
    if (bmcCredentials != null) {
      String problem = Ids.problem(bmcCredentials);
      v.check(problem == null, "bmcCredentials", problem);
    }
    if (mgmtAddress != null) {
      String problem = ManagementAddress.problem(mgmtAddress);
      v.check(problem == null, "mgmtAddress", problem);
    }
    if (macAddress != null && !MacAddress.isValid(macAddress)) {
      v.error("macAddress", "not a MAC address: " + Texts.quote(macAddress));
    }
    if (powerInterface != null) {
      powerInterface.type().checkNode(facts(null), v);
      if (pxeBoot(bootProfile) && !powerInterface.capabilities().bootOverride()) {
        v.error(
            "bootProfile",
            Texts.quote(bootProfile)
                + " boots from the network, which "
                + powerInterface
                + " cannot set up (no one-time boot device): use "
                + PowerInterfaceTypes.namesWhere(PowerCapabilities::bootOverride, " or ")
                + ", or a disk profile");
      }
    }
    if (bmcTls != null) {
      bmcTls.validate(v.at("bmcTls"));
    }
    // Every interface checks its own settings field wherever it is set (opaque to the model).
    for (PowerInterfaceType type : PowerInterfaceTypes.all()) {
      String field = type.settingsField();
      JsonNode settings = field == null ? null : settings(field);
      if (settings != null) {
        type.checkSettings(settings, v.at(field));
      }
    }
    if (resources != null) {
      resources.validate(v.at("resources"));
    }
    v.check(
        idlePowerWatts == null || idlePowerWatts >= 0 && Double.isFinite(idlePowerWatts),
        "idlePowerWatts",
        "must be a non-negative number");
    Labels.validate(v.at("labels"), labels);
  }

  /**
   * What a power interface reads of this spec, for node {@code id} ({@code null} while a spec is
   * checked before it has one): the addresses and any field by its wire name.
   */
  public SpecFacts facts(String id) {
    return new SpecFacts(id, this);
  }

  /**
   * Whether this node's power interface can switch it off (a Wake-on-LAN node only with a power-off
   * command); {@code false} without a power interface.
   */
  public boolean canPowerOff(String id) {
    return powerInterface != null && powerInterface.type().canPowerOff(facts(id));
  }

  /**
   * Whether {@code bootProfile} asks for a network (PXE) boot: it is {@code pxe}, or starts with
   * {@code pxe-} or {@code pxe:} (such as {@code pxe-ubuntu-24} or {@code pxe:rescue}), ignoring
   * case and surrounding blanks. Any other profile ({@code disk}, {@code no-pxe}, {@code ipxe},
   * none) boots as the machine is set up.
   */
  public static boolean pxeBoot(String bootProfile) {
    if (bootProfile == null) {
      return false;
    }
    String p = bootProfile.strip().toLowerCase(java.util.Locale.ROOT);
    return p.equals("pxe") || p.startsWith("pxe-") || p.startsWith("pxe:");
  }

  private static void text(Validator v, String field, String value) {
    if (value == null) {
      return;
    }
    v.check(value.length() <= MAX_TEXT, field, "must be at most " + MAX_TEXT + " characters long");
    v.check(!hasControl(value), field, "must not contain control characters");
  }

  private static boolean hasControl(String value) {
    for (int i = 0; i < value.length(); i++) {
      if (Character.isISOControl(value.charAt(i))) {
        return true;
      }
    }
    return false;
  }
}
