package io.bamel.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.power.BmcEndpoint;
import io.bamel.power.TlsSettings;
import io.bamel.power.cli.BmcCommand;
import io.bamel.power.ipmi.IpmiDriver;
import io.bamel.power.proxmox.ProxmoxDriver;
import io.bamel.power.wol.WolDriver;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A node's BMC from its API JSON ({@code NodeView}), as the node controller builds it from the
 * spec: the management address (the MAC for Wake-on-LAN, with broadcast, probe and power-off
 * command as options), the credential name, the TLS choice ({@code bmcTls}: skip, pin, or CA file)
 * and the IPMI and Proxmox options. Pure; no secret is involved.
 */
public final class NodeBmcs {

  private NodeBmcs() {}

  /**
   * The node's BMC, with {@code credentialsRoot} as the local directory of credentials.
   *
   * @throws BmcCommand.NodeLookupException when the node has no power interface or address
   */
  public static BmcCommand.NodeBmc of(JsonNode view, Path credentialsRoot) {
    String id = view.path("id").asText();
    JsonNode spec = view.path("spec");
    String iface = text(spec, "powerInterface");
    if (iface == null) {
      throw new BmcCommand.NodeLookupException("node " + id + " has no powerInterface");
    }
    iface = iface.toLowerCase(Locale.ROOT);
    Map<String, String> options = new HashMap<>();
    String mgmt = text(spec, "mgmtAddress");
    String address = mgmt;
    JsonNode wol = spec.path("wakeOnLan");
    if (iface.equals("wol")) {
      address = text(spec, "macAddress");
      put(options, WolDriver.OPTION_BROADCAST, text(wol, "broadcast"));
      if (text(wol, "powerOffCommand") != null) {
        options.put(WolDriver.OPTION_POWER_OFF_COMMAND, text(wol, "powerOffCommand"));
        options.put(WolDriver.OPTION_NODE, id);
        put(options, WolDriver.OPTION_MGMT_ADDRESS, mgmt);
      }
      if (mgmt != null && wol.path("probePort").isNumber()) {
        options.put(WolDriver.OPTION_PROBE, mgmt + ":" + wol.path("probePort").asInt());
      }
    }
    JsonNode ipmi = spec.path("ipmi");
    put(options, IpmiDriver.OPTION_CIPHER_SUITE, text(ipmi, "cipherSuite"));
    put(options, IpmiDriver.OPTION_PRIVILEGE, text(ipmi, "privilege"));
    JsonNode proxmox = spec.path("proxmox");
    if (proxmox.isObject()) {
      put(options, ProxmoxDriver.OPTION_NODE, text(proxmox, "node"));
      put(options, ProxmoxDriver.OPTION_VMID, text(proxmox, "vmid"));
    }
    if (address == null) {
      throw new BmcCommand.NodeLookupException(
          "node " + id + " has no " + (iface.equals("wol") ? "macAddress" : "mgmtAddress"));
    }
    JsonNode tls = spec.path("bmcTls");
    TlsSettings settings = TlsSettings.DEFAULT;
    if (tls.path("insecureSkipVerify").asBoolean(false)) {
      settings = TlsSettings.insecureSkipVerify();
    } else if (text(tls, "pinnedSha256") != null) {
      settings =
          TlsSettings.pinned(text(tls, "pinnedSha256").replace(":", "").toLowerCase(Locale.ROOT));
    } else if (text(tls, "caFile") != null) {
      settings = TlsSettings.caBundle(Path.of(text(tls, "caFile")));
    }
    return new BmcCommand.NodeBmc(
        iface,
        new BmcEndpoint(address, text(spec, "bmcCredentials"), settings, options),
        credentialsRoot);
  }

  private static String text(JsonNode object, String field) {
    JsonNode v = object.path(field);
    return v.isMissingNode() || v.isNull() ? null : v.asText();
  }

  private static void put(Map<String, String> options, String key, String value) {
    if (value != null) {
      options.put(key, value);
    }
  }
}
