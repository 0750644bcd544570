package io.bamel.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.BmcTls;
import io.bamel.inventory.model.NodeSpec;
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

  @Test
  void redfishUsesTheManagementAddressAndTheCredentialName() {
    BmcEndpoint e =
        BmcEndpoints.of(
            "n1",
            NodeSpec.builder()
                .mgmtAddress("https://192.0.2.5")
                .powerInterface(PowerInterface.of("redfish"))
                .bmcCredentials("rack-7")
                .bmcTls(new BmcTls("/etc/bamel/ca.pem", null, null, null))
                .build());
    assertThat(e.address()).isEqualTo("https://192.0.2.5");
    assertThat(e.credentialsName()).isEqualTo("rack-7");
    assertThat(e.tls()).isEqualTo(TlsSettings.caBundle(Path.of("/etc/bamel/ca.pem")));
    assertThat(
            BmcEndpoints.of(
                    "n1",
                    NodeSpec.builder()
                        .mgmtAddress("https://x")
                        .bmcTls(new BmcTls(null, true, null, null))
                        .build())
                .tls())
        .isEqualTo(TlsSettings.insecureSkipVerify());
    assertThat(BmcEndpoints.of("n1", NodeSpec.builder().mgmtAddress("https://x").build()).tls())
        .isEqualTo(TlsSettings.DEFAULT);
    String pin = "AB:" + "cd".repeat(31);
    assertThat(
            BmcEndpoints.of(
                    "n1",
                    NodeSpec.builder()
                        .mgmtAddress("https://x")
                        .bmcTls(new BmcTls(null, null, pin, null))
                        .build())
                .tls())
        .isEqualTo(TlsSettings.pinned("ab" + "cd".repeat(31)));
  }

  @Test
  void wakeOnLanAddressesTheMacAndProbesTheHost() {
    BmcEndpoint e =
        BmcEndpoints.of(
            "n1",
            NodeSpec.builder()
                .macAddress("0c:c4:7a:00:00:01")
                .mgmtAddress("192.0.2.9")
                .powerInterface(PowerInterface.of("wol"))
                .build()
                .withSettings(WolInterface.FIELD, new WakeOnLan("192.0.2.255:9", 22, null, null)));
    assertThat(e.address()).isEqualTo("0c:c4:7a:00:00:01");
    assertThat(e.option(WolDriver.OPTION_PROBE)).contains("192.0.2.9:22");
    assertThat(e.option(WolDriver.OPTION_BROADCAST)).contains("192.0.2.255:9");
    assertThat(e.option(WolDriver.OPTION_POWER_OFF_COMMAND)).isEmpty();
  }

  @Test
  void wakeOnLanPassesThePowerOffCommandByNameWithTheNodesValues() {
    BmcEndpoint e =
        BmcEndpoints.of(
            "node-9",
            NodeSpec.builder()
                .macAddress("0c:c4:7a:00:00:01")
                .mgmtAddress("192.0.2.9")
                .powerInterface(PowerInterface.of("wol"))
                .build()
                .withSettings(WolInterface.FIELD, new WakeOnLan(null, 22, "ssh-poweroff", null)));
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
            NodeSpec.builder()
                .mgmtAddress("https://pve:8006")
                .powerInterface(PowerInterface.of("proxmox"))
                .build()
                .withSettings(ProxmoxInterface.FIELD, new ProxmoxVm("pve1", 101, null)));
    assertThat(e.option(ProxmoxDriver.OPTION_NODE)).contains("pve1");
    assertThat(e.option(ProxmoxDriver.OPTION_VMID)).contains("101");
  }

  @Test
  void ipmiCipherSuiteAndPrivilegeBecomeTheDriversOptions() {
    NodeSpec plain =
        NodeSpec.builder()
            .mgmtAddress("192.0.2.7")
            .powerInterface(PowerInterface.of("ipmi"))
            .bmcCredentials("rack-7")
            .build();
    assertThat(BmcEndpoints.of("n1", plain).options())
        .as("defaults unchanged: the driver's own")
        .doesNotContainKeys(IpmiDriver.OPTION_CIPHER_SUITE, IpmiDriver.OPTION_PRIVILEGE);

    BmcEndpoint e =
        BmcEndpoints.of(
            "n1",
            plain.withSettings(IpmiInterface.FIELD, IpmiSettings.of(17, "OPERATOR")).validate());
    assertThat(e.options())
        .containsEntry(IpmiDriver.OPTION_CIPHER_SUITE, "17")
        .containsEntry(IpmiDriver.OPTION_PRIVILEGE, "OPERATOR");
    assertThat(
            BmcEndpoints.of(
                    "n1", plain.withSettings(IpmiInterface.FIELD, IpmiSettings.of(null, "USER")))
                .options())
        .containsEntry(IpmiDriver.OPTION_PRIVILEGE, "USER")
        .doesNotContainKey(IpmiDriver.OPTION_CIPHER_SUITE);
  }

  @Test
  void ipmiImplementationBecomesTheDriversOption() {
    NodeSpec plain =
        NodeSpec.builder()
            .mgmtAddress("192.0.2.7")
            .powerInterface(PowerInterface.of("ipmi"))
            .bmcCredentials("rack-7")
            .build();
    assertThat(BmcEndpoints.of("n1", plain).options())
        .doesNotContainKey(IpmiDriver.OPTION_IMPLEMENTATION);
    NodeSpec fallback =
        plain
            .withSettings(
                IpmiInterface.FIELD,
                new IpmiSettings(null, null, java.util.Map.of("implementation", "ipmitool")))
            .validate();
    assertThat(BmcEndpoints.of("n1", fallback).options())
        .containsEntry(IpmiDriver.OPTION_IMPLEMENTATION, "ipmitool");
  }
}
