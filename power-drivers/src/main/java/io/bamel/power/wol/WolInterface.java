package io.bamel.power.wol;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.power.DriverContext;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerDriverFactory;
import io.bamel.power.spi.CliFlag;
import io.bamel.power.spi.FieldChecks;
import io.bamel.power.spi.NodeFacts;
import io.bamel.power.spi.PowerCapabilities;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code wol} power interface: Wake-on-LAN. The driver's address is the node's {@code
 * macAddress}; the TCP probe at {@code mgmtAddress}:{@code wakeOnLan.probePort} tells whether the
 * machine is up; {@code wakeOnLan.powerOffCommand} names one of the server's power-off commands
 * (never command text), passed with the node's id and mgmt address for its placeholders. A magic
 * packet sets no boot device, reads nothing and cannot ask for a graceful shutdown; without a
 * power-off command bamel cannot switch the node off, so no pool picks it for a scale-down.
 */
public final class WolInterface implements PowerDriverFactory {

  @Override
  public String name() {
    return WolDriver.INTERFACE;
  }

  @Override
  public PowerCapabilities capabilities() {
    return PowerCapabilities.NONE;
  }

  @Override
  public String settingsField() {
    return "wakeOnLan";
  }

  @Override
  public void checkNode(NodeFacts node, FieldChecks checks) {
    checks.check(node.macAddress() != null, "macAddress", "required for wol");
    checks.check(
        node.mgmtAddress() != null,
        "mgmtAddress",
        "required for wol: the host whose probe port tells whether the machine is up");
    checks.check(
        probePort(node) != null,
        "wakeOnLan.probePort",
        "required for wol: without a probe the power state is unknown and no power-on can ever"
            + " be confirmed");
  }

  @Override
  public String addressField() {
    return "macAddress";
  }

  @Override
  public String address(NodeFacts node) {
    return node.macAddress();
  }

  @Override
  public Map<String, String> options(NodeFacts node) {
    Map<String, String> options = new HashMap<>();
    JsonNode settings = node.field(settingsField());
    String broadcast = text(settings, "broadcast");
    if (broadcast != null) {
      options.put(WolDriver.OPTION_BROADCAST, broadcast);
    }
    if (canPowerOff(node)) {
      options.put(WolDriver.OPTION_POWER_OFF_COMMAND, text(settings, "powerOffCommand"));
      if (node.id() != null) {
        options.put(WolDriver.OPTION_NODE, node.id());
      }
      if (node.mgmtAddress() != null) {
        options.put(WolDriver.OPTION_MGMT_ADDRESS, node.mgmtAddress());
      }
    }
    String probePort = probePort(node);
    if (node.mgmtAddress() != null && probePort != null) {
      options.put(WolDriver.OPTION_PROBE, node.mgmtAddress() + ":" + probePort);
    }
    return options;
  }

  /** Only with a {@code wakeOnLan.powerOffCommand}: a magic packet cannot switch a machine off. */
  @Override
  public boolean canPowerOff(NodeFacts node) {
    String command = text(node.field(settingsField()), "powerOffCommand");
    return command != null && !command.isBlank();
  }

  @Override
  public List<CliFlag> cliFlags() {
    return List.of(
        new CliFlag(
            "--broadcast", "HOST[:PORT]", "wol: broadcast address", WolDriver.OPTION_BROADCAST),
        new CliFlag("--probe", "HOST:PORT", "wol: TCP probe for the state", WolDriver.OPTION_PROBE),
        new CliFlag(
            "--off-command",
            "NAME",
            "wol: the power-off command's name in --off-commands-file",
            WolDriver.OPTION_POWER_OFF_COMMAND),
        new CliFlag(
            "--mgmt-address",
            "HOST",
            "wol: the node's mgmtAddress, for {host} and {address}",
            WolDriver.OPTION_MGMT_ADDRESS));
  }

  @Override
  public PowerDriver create(DriverContext context) {
    return new WolDriver(context.part(PowerOffCommands.class).orElse(PowerOffCommands.empty()));
  }

  private String probePort(NodeFacts node) {
    return text(node.field(settingsField()), "probePort");
  }

  private static String text(JsonNode settings, String field) {
    JsonNode value = settings == null ? null : settings.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }
}
