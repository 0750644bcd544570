package io.bamel.node;

import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.SpecFacts;
import io.bamel.power.BmcEndpoint;
import io.bamel.power.TlsSettings;
import io.bamel.power.spi.PowerInterfaceType;
import java.nio.file.Path;
import java.util.Map;

/**
 * Builds the {@link BmcEndpoint} of a node from its spec: the one mapping of a spec to a BMC, used
 * by the node controller and by the client's {@code bamel bmc --node}. Pure; never touches a
 * secret. What the address is and which endpoint options the node's settings become is the power
 * interface's own rule ({@link PowerInterfaceType#address}, {@link PowerInterfaceType#options});
 * the TLS settings ({@code bmcTls}) are every interface's.
 */
public final class BmcEndpoints {

  private BmcEndpoints() {}

  /**
   * The endpoint of node {@code id}: its interface's address and options (for Wake-on-LAN the MAC,
   * the probe and the power-off command's name; for IPMI the cipher suite and privilege; for
   * Proxmox the VM), or the {@code mgmtAddress} and no option when it has no interface.
   */
  public static BmcEndpoint of(String id, NodeSpec spec) {
    String address = spec.mgmtAddress();
    Map<String, String> options = Map.of();
    if (spec.powerInterface() != null) {
      PowerInterfaceType type = spec.powerInterface().type();
      SpecFacts facts = spec.facts(id);
      address = type.address(facts);
      options = type.options(facts);
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
