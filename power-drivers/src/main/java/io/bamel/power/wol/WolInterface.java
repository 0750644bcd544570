package io.bamel.power.wol;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.power.DriverContext;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerDriverFactory;
import io.bamel.power.spi.CliFlag;
import io.bamel.power.spi.FieldChecks;
import io.bamel.power.spi.NodeFacts;
import io.bamel.power.spi.PowerCapabilities;
import io.bamel.power.spi.SettingsJson;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code wol} power interface: Wake-on-LAN. The driver's address is the node's {@code
 * macAddress}; the TCP probe at {@code mgmtAddress}:{@code wakeOnLan.probePort} tells whether the
 * machine is up; {@code wakeOnLan.powerOffCommand} names one of the server's power-off commands
 * (never command text), passed with the node's id and mgmt address for its placeholders. A magic
 * packet sets no boot device, reads nothing and cannot ask for a graceful shutdown; without a
 * power-off command bamel cannot switch the node off, so no pool picks it for a scale-down.
 */
public final class WolInterface implements PowerDriverFactory {

  /** The node spec field of the settings ({@link WakeOnLan}). */
  public static final String FIELD = "wakeOnLan";

  private static final JsonNode SCHEMA = SettingsJson.schema(WolInterface.class, "wakeOnLan.json");

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
    return FIELD;
  }

  @Override
  public void checkSettings(JsonNode settings, FieldChecks checks) {
    WakeOnLan wol = SettingsJson.read(settings, WakeOnLan.class, checks);
    if (wol != null) {
      wol.check(checks);
    }
  }

  @Override
  public List<String> unknownSettings(JsonNode settings) {
    return SettingsJson.unknownMembers(settings, WakeOnLan.class);
  }

  /** A {@code powerOffCommand} must be one of the server's commands ({@code defined}). */
  @Override
  public void checkDefinedNames(JsonNode settings, Set<String> defined, FieldChecks checks) {
    WakeOnLan wol = SettingsJson.readOrNull(settings, WakeOnLan.class);
    if (wol == null || wol.powerOffCommand() == null || defined.contains(wol.powerOffCommand())) {
      return;
    }
    checks.error(
        "powerOffCommand",
        defined.isEmpty()
            ? WakeOnLan.COMMAND_PROBLEM + "; this server defines none"
            : WakeOnLan.COMMAND_PROBLEM
                + "; this server defines "
                + String.join(", ", defined.stream().sorted().toList()));
  }

  @Override
  public JsonNode settingsSchema() {
    return SCHEMA;
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
    WakeOnLan settings = WakeOnLan.of(node);
    if (settings != null && settings.broadcast() != null) {
      options.put(WolDriver.OPTION_BROADCAST, settings.broadcast());
    }
    if (settings != null && settings.canPowerOff()) {
      options.put(WolDriver.OPTION_POWER_OFF_COMMAND, settings.powerOffCommand());
      if (node.id() != null) {
        options.put(WolDriver.OPTION_NODE, node.id());
      }
      if (node.mgmtAddress() != null) {
        options.put(WolDriver.OPTION_MGMT_ADDRESS, node.mgmtAddress());
      }
    }
    if (node.mgmtAddress() != null && settings != null && settings.probePort() != null) {
      options.put(WolDriver.OPTION_PROBE, node.mgmtAddress() + ":" + settings.probePort());
    }
    return options;
  }

  /** Only with a {@code wakeOnLan.powerOffCommand}: a magic packet cannot switch a machine off. */
  @Override
  public boolean canPowerOff(NodeFacts node) {
    WakeOnLan settings = WakeOnLan.of(node);
    return settings != null && settings.canPowerOff();
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

  /** The probe port as given, read without a type (the field's own check reports a wrong one). */
  private static JsonNode probePort(NodeFacts node) {
    JsonNode settings = node.field(FIELD);
    JsonNode port = settings == null ? null : settings.get("probePort");
    return port == null || port.isNull() ? null : port;
  }
}
