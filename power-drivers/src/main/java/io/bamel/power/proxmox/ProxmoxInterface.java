package io.bamel.power.proxmox;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.power.DriverContext;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerDriverFactory;
import io.bamel.power.spi.CliFlag;
import io.bamel.power.spi.FieldChecks;
import io.bamel.power.spi.NodeFacts;
import io.bamel.power.spi.PowerCapabilities;
import java.util.List;
import java.util.Map;

/**
 * The {@code proxmox} power interface: a Proxmox VE virtual machine, driven through the API at
 * {@code mgmtAddress} ({@code https://host:8006}); its settings field {@code proxmox} names the
 * cluster node and the VM id. It inspects the VM's config and shuts down gracefully (an ACPI
 * shutdown); the boot order is Proxmox's business, so it sets no boot device, and it reads no power
 * draw.
 */
public final class ProxmoxInterface implements PowerDriverFactory {

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
    return "proxmox";
  }

  @Override
  public void checkNode(NodeFacts node, FieldChecks checks) {
    checks.check(node.mgmtAddress() != null, "mgmtAddress", "required for proxmox");
    checks.check(
        node.field(settingsField()) != null, "proxmox", "required for proxmox: the node and vmid");
  }

  @Override
  public Map<String, String> options(NodeFacts node) {
    JsonNode vm = node.field(settingsField());
    if (vm == null || !vm.hasNonNull("node") || !vm.hasNonNull("vmid")) {
      return Map.of();
    }
    return Map.of(
        ProxmoxDriver.OPTION_NODE, vm.get("node").asText(),
        ProxmoxDriver.OPTION_VMID, vm.get("vmid").asText());
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
