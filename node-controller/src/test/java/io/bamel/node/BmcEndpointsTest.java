package io.bamel.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.BmcTls;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeSpecBuilder;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.power.BmcEndpoint;
import io.bamel.power.TlsSettings;
import io.bamel.power.ipmi.IpmiDriver;
import io.bamel.power.ipmi.IpmiInterface;
import io.bamel.power.ipmi.IpmiSettings;
import io.bamel.power.proxmox.ProxmoxDriver;
import io.bamel.power.proxmox.ProxmoxInterface;
import io.bamel.power.proxmox.ProxmoxVm;
import io.bamel.power.wol.WakeOnLan;
import io.bamel.power.wol.WolDriver;
import io.bamel.power.wol.WolInterface;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class BmcEndpointsTest {

  /** A node on IPMI at 192.0.2.7 with credentials rack-7, no IPMI settings. */
  private static final NodeSpec IPMI = on("ipmi", "192.0.2.7").bmcCredentials("rack-7").build();

  /** A spec on {@code powerInterface} at {@code mgmtAddress}. */
  private static NodeSpecBuilder on(String powerInterface, String mgmtAddress) {
    return NodeSpec.builder()
        .mgmtAddress(mgmtAddress)
        .powerInterface(PowerInterface.of(powerInterface));
  }

  /** The TLS settings of a node at https://x whose spec says {@code tls}. */
  private static TlsSettings tlsOf(BmcTls tls) {
    return BmcEndpoints.of("n1", NodeSpec.builder().mgmtAddress("https://x").bmcTls(tls).build())
        .tls();
  }

  /** Node {@code id} on Wake-on-LAN (MAC 0c:c4:7a:00:00:01, host 192.0.2.9) with {@code wol}. */
  private static BmcEndpoint wol(String id, WakeOnLan wol) {
    return BmcEndpoints.of(
        id,
        on("wol", "192.0.2.9")
            .macAddress("0c:c4:7a:00:00:01")
            .build()
            .withSettings(WolInterface.FIELD, wol));
  }

  /** The driver options of node n1 with {@code ipmi} as IPMI settings (null: none). */
  private static java.util.Map<String, String> ipmiOptions(IpmiSettings ipmi) {
    NodeSpec spec = ipmi == null ? IPMI : IPMI.withSettings(IpmiInterface.FIELD, ipmi).validate();
    return BmcEndpoints.of("n1", spec).options();
  }

  @Test
  void redfishUsesTheManagementAddressAndTheCredentialName() {
    BmcEndpoint e =
        BmcEndpoints.of(
            "n1",
            on("redfish", "https://192.0.2.5")
                .bmcCredentials("rack-7")
                .bmcTls(new BmcTls("/etc/bamel/ca.pem", null, null, null))
                .build());
    assertThat(e.address()).isEqualTo("https://192.0.2.5");
    assertThat(e.credentialsName()).isEqualTo("rack-7");
    assertThat(e.tls()).isEqualTo(TlsSettings.caBundle(Path.of("/etc/bamel/ca.pem")));
    assertThat(tlsOf(new BmcTls(null, true, null, null)))
        .isEqualTo(TlsSettings.insecureSkipVerify());
    assertThat(tlsOf(null)).isEqualTo(TlsSettings.DEFAULT);
    String pin = "AB:" + "cd".repeat(31);
    assertThat(tlsOf(new BmcTls(null, null, pin, null)))
        .isEqualTo(TlsSettings.pinned("ab" + "cd".repeat(31)));
  }

  @Test
  void wakeOnLanAddressesTheMacAndProbesTheHost() {
    BmcEndpoint e = wol("n1", new WakeOnLan("192.0.2.255:9", 22, null, null));
    assertThat(e.address()).isEqualTo("0c:c4:7a:00:00:01");
    assertThat(e.option(WolDriver.OPTION_PROBE)).contains("192.0.2.9:22");
    assertThat(e.option(WolDriver.OPTION_BROADCAST)).contains("192.0.2.255:9");
    assertThat(e.option(WolDriver.OPTION_POWER_OFF_COMMAND)).isEmpty();
  }

  @Test
  void wakeOnLanPassesThePowerOffCommandByNameWithTheNodesValues() {
    BmcEndpoint e = wol("node-9", new WakeOnLan(null, 22, "ssh-poweroff", null));
    assertThat(e.address()).isEqualTo("0c:c4:7a:00:00:01");
    assertThat(e.option(WolDriver.OPTION_POWER_OFF_COMMAND)).contains("ssh-poweroff");
    assertThat(e.option(WolDriver.OPTION_NODE)).contains("node-9");
    assertThat(e.option(WolDriver.OPTION_MGMT_ADDRESS)).contains("192.0.2.9");
  }

  @Test
  void proxmoxNamesTheNodeAndVm() {
    BmcEndpoint e =
        BmcEndpoints.of(
            "n1",
            on("proxmox", "https://pve:8006")
                .build()
                .withSettings(ProxmoxInterface.FIELD, new ProxmoxVm("pve1", 101, null)));
    assertThat(e.option(ProxmoxDriver.OPTION_NODE)).contains("pve1");
    assertThat(e.option(ProxmoxDriver.OPTION_VMID)).contains("101");
  }

  @Test
  void ipmiCipherSuiteAndPrivilegeBecomeTheDriversOptions() {
    assertThat(ipmiOptions(null))
        .as("defaults unchanged: the driver's own")
        .doesNotContainKeys(IpmiDriver.OPTION_CIPHER_SUITE, IpmiDriver.OPTION_PRIVILEGE);
    assertThat(ipmiOptions(IpmiSettings.of(17, "OPERATOR")))
        .containsEntry(IpmiDriver.OPTION_CIPHER_SUITE, "17")
        .containsEntry(IpmiDriver.OPTION_PRIVILEGE, "OPERATOR");
    assertThat(ipmiOptions(IpmiSettings.of(null, "USER")))
        .containsEntry(IpmiDriver.OPTION_PRIVILEGE, "USER")
        .doesNotContainKey(IpmiDriver.OPTION_CIPHER_SUITE);
  }

  @Test
  void ipmiImplementationBecomesTheDriversOption() {
    assertThat(ipmiOptions(null)).doesNotContainKey(IpmiDriver.OPTION_IMPLEMENTATION);
    assertThat(
            ipmiOptions(
                new IpmiSettings(null, null, java.util.Map.of("implementation", "ipmitool"))))
        .containsEntry(IpmiDriver.OPTION_IMPLEMENTATION, "ipmitool");
  }
}
