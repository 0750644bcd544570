package io.bamel.power.proxmox;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.bamel.power.spi.FieldChecks;
import io.bamel.power.spi.NodeFacts;
import io.bamel.power.spi.SettingsJson;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a Proxmox VE virtual machine lives, the node spec's {@code proxmox} field ({@link
 * ProxmoxInterface#FIELD}): the cluster node's name and the VM id. Used when {@code powerInterface}
 * is {@code proxmox}; {@code mgmtAddress} is then the API URL.
 *
 * @param node the Proxmox cluster node the VM runs on
 * @param vmid the VM id, 100 or more
 * @param extensions members this version does not declare, kept and written back
 */
public record ProxmoxVm(
    String node, Integer vmid, @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  /** Copies {@code extensions}, keeping order; none becomes empty. */
  public ProxmoxVm {
    extensions =
        extensions == null || extensions.isEmpty()
            ? Map.of()
            : Collections.unmodifiableMap(new LinkedHashMap<>(extensions));
  }

  /** The VM {@code vmid} on cluster node {@code node}. */
  public static ProxmoxVm of(String node, Integer vmid) {
    return new ProxmoxVm(node, vmid, null);
  }

  /** The node's VM, or {@code null} when it names none (or it cannot be read). */
  public static ProxmoxVm of(NodeFacts node) {
    return SettingsJson.readOrNull(node.field(ProxmoxInterface.FIELD), ProxmoxVm.class);
  }

  /** Checks that both the node and a VM id are given. */
  void check(FieldChecks checks) {
    checks.check(node != null && !node.isBlank(), "node", "must name the Proxmox node");
    checks.check(vmid != null && vmid >= 100, "vmid", "must be a VM id of 100 or more");
  }
}
