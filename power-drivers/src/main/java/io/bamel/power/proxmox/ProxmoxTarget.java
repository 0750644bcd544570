package io.bamel.power.proxmox;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import okhttp3.HttpUrl;

/**
 * Which VM on which Proxmox VE cluster: the API base ({@code https://host:8006}), the cluster node
 * name and the VM id, from a node's endpoint. Pure.
 *
 * @param base the API base URL
 * @param node the Proxmox node the VM runs on
 * @param vmid the VM id
 */
public record ProxmoxTarget(HttpUrl base, String node, int vmid) {

  /** Reads the target from {@code endpoint}'s address and options. */
  public static ProxmoxTarget of(BmcEndpoint endpoint) throws TerminalPowerException {
    HttpUrl base = HttpUrl.parse(endpoint.address().trim());
    if (base == null) {
      throw invalid("not a Proxmox API address (want https://host:8006): " + endpoint.address());
    }
    String node =
        endpoint
            .option(ProxmoxDriver.OPTION_NODE)
            .orElseThrow(() -> invalid("the Proxmox node name (option pveNode) is missing"));
    if (!node.matches("[A-Za-z0-9][A-Za-z0-9.-]*")) {
      throw invalid("not a Proxmox node name: " + node);
    }
    String vmid =
        endpoint
            .option(ProxmoxDriver.OPTION_VMID)
            .orElseThrow(() -> invalid("the VM id (option vmid) is missing"));
    try {
      int id = Integer.parseInt(vmid);
      if (id < 1) {
        throw new NumberFormatException();
      }
      return new ProxmoxTarget(base, node, id);
    } catch (NumberFormatException e) {
      throw invalid("not a VM id: " + vmid);
    }
  }

  /** {@code /api2/json/nodes/{node}/qemu/{vmid}/...}. */
  HttpUrl vm(String... segments) {
    HttpUrl.Builder url =
        base.newBuilder()
            .addPathSegments("api2/json/nodes")
            .addPathSegment(node)
            .addPathSegment("qemu")
            .addPathSegment(String.valueOf(vmid));
    for (String segment : segments) {
      url.addPathSegment(segment);
    }
    return url.build();
  }

  /** {@code /api2/json/nodes/{node}/tasks/{upid}/status}. */
  HttpUrl taskStatus(String upid) {
    return base.newBuilder()
        .addPathSegments("api2/json/nodes")
        .addPathSegment(node)
        .addPathSegment("tasks")
        .addPathSegment(upid)
        .addPathSegment("status")
        .build();
  }

  /** A short description for messages. */
  String describe() {
    return "VM " + vmid + " on " + node + " at " + base.host();
  }

  private static TerminalPowerException invalid(String message) {
    return new TerminalPowerException(PowerException.Reason.INVALID_CONFIG, message);
  }
}
