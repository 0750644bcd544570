package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import java.util.Map;

/**
 * Where a Proxmox VE virtual machine lives: the cluster node's name and the VM id. Used when {@code
 * powerInterface} is {@code proxmox}; {@code mgmtAddress} is then the API URL.
 */
public record ProxmoxVm(
    String node, Integer vmid, @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  /** Normalises a missing extension map to an empty one. */
  public ProxmoxVm {
    extensions = Extensions.copy(extensions);
  }

  void validate(Validator v) {
    v.check(node != null && !node.isBlank(), "node", "must name the Proxmox node");
    v.check(vmid != null && vmid >= 100, "vmid", "must be a VM id of 100 or more");
  }
}
