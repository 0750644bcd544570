package io.bamel.inventory.model;

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
  private IpmiSettings ipmi;
  private ProxmoxVm proxmox;
  private WakeOnLan wakeOnLan;
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
    this.ipmi = s.ipmi();
    this.proxmox = s.proxmox();
    this.wakeOnLan = s.wakeOnLan();
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

  /** Sets {@code ipmi}. */
  public NodeSpecBuilder ipmi(IpmiSettings ipmi) {
    this.ipmi = ipmi;
    return this;
  }

  /** Sets {@code bmcTls}. */
  public NodeSpecBuilder bmcTls(BmcTls bmcTls) {
    this.bmcTls = bmcTls;
    return this;
  }

  /** Sets {@code proxmox}. */
  public NodeSpecBuilder proxmox(ProxmoxVm proxmox) {
    this.proxmox = proxmox;
    return this;
  }

  /** Sets {@code wakeOnLan}. */
  public NodeSpecBuilder wakeOnLan(WakeOnLan wakeOnLan) {
    this.wakeOnLan = wakeOnLan;
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

  /** Sets {@code extensions}. */
  public NodeSpecBuilder extensions(Map<String, Object> extensions) {
    this.extensions = extensions;
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
        ipmi,
        proxmox,
        wakeOnLan,
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
