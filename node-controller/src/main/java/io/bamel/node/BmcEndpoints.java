package io.bamel.node;

import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.power.BmcEndpoint;
import io.bamel.power.TlsSettings;
import io.bamel.power.ipmi.IpmiDriver;
import io.bamel.power.proxmox.ProxmoxDriver;
import io.bamel.power.wol.WolDriver;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Builds the {@link BmcEndpoint} of a node from its spec: the one mapping of a spec to a BMC, used
 * by the node controller and by the client's {@code bamel bmc --node}. Pure; never touches a
 * secret.
 */
public final class BmcEndpoints {

  private BmcEndpoints() {}

  /**
   * The endpoint of node {@code id}. For Wake-on-LAN the address is the MAC, the probe is the mgmt
   * address, and the power-off command is passed by name with the node's id and mgmt address for
   * its placeholders (the driver looks the name up in the server's commands; no command text comes
   * from the spec). The spec's {@code ipmi} cipher suite and privilege become the IPMI driver's
   * endpoint options (unset: the driver's defaults).
   */
  public static BmcEndpoint of(String id, NodeSpec spec) {
    Map<String, String> options = new HashMap<>();
    String address = spec.mgmtAddress();
    if (spec.powerInterface() == PowerInterface.WOL) {
      address = spec.macAddress();
      if (spec.wakeOnLan() != null && spec.wakeOnLan().broadcast() != null) {
        options.put(WolDriver.OPTION_BROADCAST, spec.wakeOnLan().broadcast());
      }
      if (spec.wakeOnLan() != null && spec.wakeOnLan().canPowerOff()) {
        options.put(WolDriver.OPTION_POWER_OFF_COMMAND, spec.wakeOnLan().powerOffCommand());
        options.put(WolDriver.OPTION_NODE, id);
        if (spec.mgmtAddress() != null) {
          options.put(WolDriver.OPTION_MGMT_ADDRESS, spec.mgmtAddress());
        }
      }
      if (spec.mgmtAddress() != null
          && spec.wakeOnLan() != null
          && spec.wakeOnLan().probePort() != null) {
        options.put(
            WolDriver.OPTION_PROBE, spec.mgmtAddress() + ":" + spec.wakeOnLan().probePort());
      }
    }
    if (spec.ipmi() != null && spec.ipmi().cipherSuite() != null) {
      options.put(IpmiDriver.OPTION_CIPHER_SUITE, String.valueOf(spec.ipmi().cipherSuite()));
    }
    if (spec.ipmi() != null && spec.ipmi().privilege() != null) {
      options.put(IpmiDriver.OPTION_PRIVILEGE, spec.ipmi().privilege());
    }
    // ipmi.implementation (native | ipmitool): kept among the settings' extensions, so that the
    // API schema is unchanged; the driver checks the value.
    if (spec.ipmi() != null
        && spec.ipmi().extensions().get(IpmiDriver.OPTION_IMPLEMENTATION)
            instanceof String chosen) {
      options.put(IpmiDriver.OPTION_IMPLEMENTATION, chosen);
    }
    if (spec.proxmox() != null) {
      options.put(ProxmoxDriver.OPTION_NODE, spec.proxmox().node());
      options.put(ProxmoxDriver.OPTION_VMID, String.valueOf(spec.proxmox().vmid()));
    }
    TlsSettings tls = TlsSettings.DEFAULT;
    if (spec.bmcTls() != null) {
      if (spec.bmcTls().skipsVerification()) {
        tls = TlsSettings.insecureSkipVerify();
      } else if (spec.bmcTls().pinnedFingerprint() != null) {
        tls = TlsSettings.pinned(spec.bmcTls().pinnedFingerprint());
      } else if (spec.bmcTls().caFile() != null) {
        tls = TlsSettings.caBundle(Path.of(spec.bmcTls().caFile()));
      }
    }
    return new BmcEndpoint(address, spec.bmcCredentials(), tls, options);
  }
}
