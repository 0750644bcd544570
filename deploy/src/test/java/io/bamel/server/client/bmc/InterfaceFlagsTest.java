package io.bamel.server.client.bmc;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.ipmi.IpmiDriver;
import io.bamel.power.proxmox.ProxmoxDriver;
import io.bamel.power.spi.CliFlag;
import io.bamel.power.spi.PowerInterfaceType;
import io.bamel.power.spi.PowerInterfaceTypes;
import io.bamel.power.wol.WolDriver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code bamel bmc}'s per-interface flags come from the interfaces' {@code cliFlags()}, under the
 * names scripts have always used, and each sets its endpoint option.
 */
class InterfaceFlagsTest {

  /** The interface flags of {@code bamel bmc} before they came from the declarations. */
  private static final List<String> SCRIPTED =
      List.of(
          "--broadcast",
          "--probe",
          "--off-command",
          "--mgmt-address",
          "--pve-node",
          "--vmid",
          "--cipher-suite",
          "--privilege",
          "--ipmi-implementation");

  @Test
  void everyDeclaredFlagIsACommandFlagUnderItsOldName() {
    CommandLine line = new CommandLine(new BmcCommand());
    List<String> declared = new ArrayList<>();
    for (PowerInterfaceType type : PowerInterfaceTypes.all()) {
      for (CliFlag flag : type.cliFlags()) {
        declared.add(flag.name());
        assertThat(line.getCommandSpec().findOption(flag.name())).as(flag.name()).isNotNull();
      }
    }
    assertThat(declared).containsExactlyInAnyOrderElementsOf(SCRIPTED);
    String usage = line.getUsageMessage();
    SCRIPTED.forEach(flag -> assertThat(usage).contains(flag));
  }

  @Test
  void eachFlagSetsItsEndpointOption() {
    BmcCommand command = new BmcCommand();
    new CommandLine(command)
        .parseArgs(
            "status",
            "--interface",
            "ipmi",
            "--address",
            "192.0.2.7",
            "--cipher-suite",
            "17",
            "--privilege",
            "OPERATOR",
            "--ipmi-implementation",
            "ipmitool",
            "--pve-node",
            "pve1",
            "--vmid",
            "101",
            "--broadcast",
            "192.0.2.255:9",
            "--probe",
            "192.0.2.7:22",
            "--off-command",
            "ssh-off",
            "--mgmt-address",
            "192.0.2.7",
            "--node",
            "n7");
    BmcEndpoint endpoint = command.endpoint();
    assertThat(endpoint.options())
        .isEqualTo(
            Map.of(
                IpmiDriver.OPTION_CIPHER_SUITE, "17",
                IpmiDriver.OPTION_PRIVILEGE, "OPERATOR",
                IpmiDriver.OPTION_IMPLEMENTATION, "ipmitool",
                ProxmoxDriver.OPTION_NODE, "pve1",
                ProxmoxDriver.OPTION_VMID, "101",
                WolDriver.OPTION_BROADCAST, "192.0.2.255:9",
                WolDriver.OPTION_PROBE, "192.0.2.7:22",
                WolDriver.OPTION_POWER_OFF_COMMAND, "ssh-off",
                WolDriver.OPTION_MGMT_ADDRESS, "192.0.2.7",
                WolDriver.OPTION_NODE, "n7"));
    BmcCommand bare = new BmcCommand();
    new CommandLine(bare).parseArgs("status", "--interface", "ipmi", "--address", "192.0.2.7");
    assertThat(bare.endpoint().options()).isEmpty();
  }
}
