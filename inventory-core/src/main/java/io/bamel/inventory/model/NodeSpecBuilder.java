package io.bamel.inventory.model;

import io.bamel.power.spi.PowerInterfaceTypes;
import io.bamel.power.spi.SettingsJson;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds a {@link NodeSpec}; start from {@link NodeSpec#builder()} or {@link NodeSpec#toBuilder()}.
 */
public final class NodeSpecBuilder {

  private String name;
  private String inventoryId;
  private String serial;
  private String assetTag;
  private String site;
  private String rack;
  private Integer rackPosition;
  private String pool;
  private String mgmtAddress;
  private String macAddress;
  private PowerInterface powerInterface;
  private String bmcCredentials;
  private BmcTls bmcTls;
  private String bootProfile;
  private ResourceCapacity resources;
  private DesiredPower desiredPower;
  private PowerPolicy powerPolicy;
  private String kubernetesNodeName;
  private Map<String, String> labels;
  private Boolean maintenance;
  private Double idlePowerWatts;
  private Map<String, Object> extensions;

  NodeSpecBuilder() {}

  NodeSpecBuilder(NodeSpec s) {
    this.name = s.name();
    this.inventoryId = s.inventoryId();
    this.serial = s.serial();
    this.assetTag = s.assetTag();
    this.site = s.site();
    this.rack = s.rack();
    this.rackPosition = s.rackPosition();
    this.pool = s.pool();
    this.mgmtAddress = s.mgmtAddress();
    this.macAddress = s.macAddress();
    this.powerInterface = s.powerInterface();
    this.bmcCredentials = s.bmcCredentials();
    this.bmcTls = s.bmcTls();
    this.bootProfile = s.bootProfile();
    this.resources = s.resources();
    this.desiredPower = s.desiredPower();
    this.powerPolicy = s.powerPolicy();
    this.kubernetesNodeName = s.kubernetesNodeName();
    this.labels = s.labels();
    this.maintenance = s.maintenance();
    this.idlePowerWatts = s.idlePowerWatts();
    this.extensions = s.extensions();
  }

  /** Sets {@code name}. */
  public NodeSpecBuilder name(String name) {
    this.name = name;
    return this;
  }

  /** Sets {@code inventoryId}. */
  public NodeSpecBuilder inventoryId(String inventoryId) {
    this.inventoryId = inventoryId;
    return this;
  }

  /** Sets {@code serial}. */
  public NodeSpecBuilder serial(String serial) {
    this.serial = serial;
    return this;
  }

  /** Sets {@code assetTag}. */
  public NodeSpecBuilder assetTag(String assetTag) {
    this.assetTag = assetTag;
    return this;
  }

  /** Sets {@code site}. */
  public NodeSpecBuilder site(String site) {
    this.site = site;
    return this;
  }

  /** Sets {@code rack}. */
  public NodeSpecBuilder rack(String rack) {
    this.rack = rack;
    return this;
  }

  /** Sets {@code rackPosition}. */
  public NodeSpecBuilder rackPosition(Integer rackPosition) {
    this.rackPosition = rackPosition;
    return this;
  }

  /** Sets {@code pool}. */
  public NodeSpecBuilder pool(String pool) {
    this.pool = pool;
    return this;
  }

  /** Sets {@code mgmtAddress}. */
  public NodeSpecBuilder mgmtAddress(String mgmtAddress) {
    this.mgmtAddress = mgmtAddress;
    return this;
  }

  /** Sets {@code macAddress}. */
  public NodeSpecBuilder macAddress(String macAddress) {
    this.macAddress = macAddress;
    return this;
  }

  /** Sets {@code powerInterface}. */
  public NodeSpecBuilder powerInterface(PowerInterface powerInterface) {
    this.powerInterface = powerInterface;
    return this;
  }

  /** Sets {@code bmcCredentials}. */
  public NodeSpecBuilder bmcCredentials(String bmcCredentials) {
    this.bmcCredentials = bmcCredentials;
    return this;
  }

  /** Sets {@code bmcTls}. */
  public NodeSpecBuilder bmcTls(BmcTls bmcTls) {
    this.bmcTls = bmcTls;
    return this;
  }

  /**
   * Sets a power interface's settings field {@code field} ({@code ipmi}, {@code wakeOnLan}, ...:
   * the interface's {@code settingsField()}) to {@code value}, its settings record (such as {@code
   * io.bamel.power.ipmi.IpmiSettings}), a map or JSON; {@code null} removes it. The spec keeps it
   * as JSON, opaque to the model, among its extensions.
   */
  public NodeSpecBuilder settings(String field, Object value) {
    Map<String, Object> changed = new LinkedHashMap<>(extensions == null ? Map.of() : extensions);
    if (value == null) {
      changed.remove(field);
    } else {
      changed.put(field, SettingsJson.toJson(value));
    }
    this.extensions = changed;
    return this;
  }

  /** Sets {@code bootProfile}. */
  public NodeSpecBuilder bootProfile(String bootProfile) {
    this.bootProfile = bootProfile;
    return this;
  }

  /** Sets {@code resources}. */
  public NodeSpecBuilder resources(ResourceCapacity resources) {
    this.resources = resources;
    return this;
  }

  /** Sets {@code desiredPower} ({@code powerState} in JSON). */
  public NodeSpecBuilder desiredPower(DesiredPower desiredPower) {
    this.desiredPower = desiredPower;
    return this;
  }

  /** Sets {@code powerPolicy}. */
  public NodeSpecBuilder powerPolicy(PowerPolicy powerPolicy) {
    this.powerPolicy = powerPolicy;
    return this;
  }

  /** Sets {@code kubernetesNodeName}. */
  public NodeSpecBuilder kubernetesNodeName(String kubernetesNodeName) {
    this.kubernetesNodeName = kubernetesNodeName;
    return this;
  }

  /** Sets {@code labels}. */
  public NodeSpecBuilder labels(Map<String, String> labels) {
    this.labels = labels;
    return this;
  }

  /** Sets {@code maintenance}. */
  public NodeSpecBuilder maintenance(Boolean maintenance) {
    this.maintenance = maintenance;
    return this;
  }

  /** Sets {@code idlePowerWatts}. */
  public NodeSpecBuilder idlePowerWatts(Double idlePowerWatts) {
    this.idlePowerWatts = idlePowerWatts;
    return this;
  }

  /**
   * Sets the fields this version does not know ({@code extensions}). The power interfaces' settings
   * fields, kept among the spec's extensions too, are known fields: those of {@code extensions} are
   * ignored and the builder's stay (set them with {@link #settings}), so that "keep the unknown
   * fields of the stored spec" never brings back its old settings.
   */
  public NodeSpecBuilder extensions(Map<String, Object> extensions) {
    Map<String, Object> merged = new LinkedHashMap<>();
    if (extensions != null) {
      extensions.forEach(
          (field, value) -> {
            if (PowerInterfaceTypes.bySettingsField(field).isEmpty()) {
              merged.put(field, value);
            }
          });
    }
    if (this.extensions != null) {
      this.extensions.forEach(
          (field, value) -> {
            if (PowerInterfaceTypes.bySettingsField(field).isPresent()) {
              merged.put(field, value);
            }
          });
    }
    this.extensions = merged;
    return this;
  }

  /** The NodeSpec. */
  public NodeSpec build() {
    return new NodeSpec(
        name,
        inventoryId,
        serial,
        assetTag,
        site,
        rack,
        rackPosition,
        pool,
        mgmtAddress,
        macAddress,
        powerInterface,
        bmcCredentials,
        bmcTls,
        bootProfile,
        resources,
        desiredPower,
        powerPolicy,
        kubernetesNodeName,
        labels,
        maintenance,
        idlePowerWatts,
        extensions);
  }
}
