package io.bamel.power.proxmox;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.power.DriverContext;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerDriverFactory;
import io.bamel.power.spi.CliFlag;
import io.bamel.power.spi.FieldChecks;
import io.bamel.power.spi.NodeFacts;
import io.bamel.power.spi.PowerCapabilities;
import io.bamel.power.spi.SettingsJson;
import java.util.List;
import java.util.Map;

/**
 * The {@code proxmox} power interface: a Proxmox VE virtual machine, driven through the API at
 * {@code mgmtAddress} ({@code https://host:8006}); its settings field {@code proxmox} ({@link
 * ProxmoxVm}, schema {@code proxmox.json} beside this class) names the cluster node and the VM id.
 * It inspects the VM's config and shuts down gracefully (an ACPI shutdown); the boot order is
 * Proxmox's business, so it sets no boot device, and it reads no power draw.
 */
public final class ProxmoxInterface implements PowerDriverFactory {

  /** The node spec field of the settings ({@link ProxmoxVm}). */
  public static final String FIELD = "proxmox";

  private static final JsonNode SCHEMA =
      SettingsJson.schema(ProxmoxInterface.class, "proxmox.json");

  @Override
  public String name() {
    return ProxmoxDriver.INTERFACE;
  }

  @Override
  public PowerCapabilities capabilities() {
    return new PowerCapabilities(false, false, true, true);
  }

  @Override
  public String settingsField() {
    return FIELD;
  }

  @Override
  public void checkSettings(JsonNode settings, FieldChecks checks) {
    ProxmoxVm vm = SettingsJson.read(settings, ProxmoxVm.class, checks);
    if (vm != null) {
      vm.check(checks);
    }
  }

  @Override
  public List<String> unknownSettings(JsonNode settings) {
    return SettingsJson.unknownMembers(settings, ProxmoxVm.class);
  }

  @Override
  public JsonNode settingsSchema() {
    return SCHEMA;
  }

  @Override
  public void checkNode(NodeFacts node, FieldChecks checks) {
    checks.check(node.mgmtAddress() != null, "mgmtAddress", "required for proxmox");
    checks.check(node.field(FIELD) != null, FIELD, "required for proxmox: the node and vmid");
  }

  @Override
  public Map<String, String> options(NodeFacts node) {
    ProxmoxVm vm = ProxmoxVm.of(node);
    if (vm == null || vm.node() == null || vm.vmid() == null) {
      return Map.of();
    }
    return Map.of(
        ProxmoxDriver.OPTION_NODE, vm.node(), ProxmoxDriver.OPTION_VMID, vm.vmid().toString());
  }

  @Override
  public List<CliFlag> cliFlags() {
    return List.of(
        new CliFlag(
            "--pve-node", "NODE", "proxmox: the node the VM runs on", ProxmoxDriver.OPTION_NODE),
        new CliFlag("--vmid", "ID", "proxmox: the VM id", ProxmoxDriver.OPTION_VMID));
  }

  @Override
  public PowerDriver create(DriverContext context) {
    return new ProxmoxDriver(context.credentials());
  }
}
