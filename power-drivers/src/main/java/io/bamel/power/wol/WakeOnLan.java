package io.bamel.power.wol;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.bamel.power.spi.FieldChecks;
import io.bamel.power.spi.NodeFacts;
import io.bamel.power.spi.SettingsJson;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Wake-on-LAN settings, the node spec's {@code wakeOnLan} field ({@link WolInterface#FIELD}), used
 * when {@code powerInterface} is {@code wol}: where the magic packet goes ({@code host[:port]},
 * default {@code 255.255.255.255:9}), which TCP port on {@code mgmtAddress} answers when the
 * machine is up (the power-state probe), and the <em>name</em> of the power-off command that
 * switches it off.
 *
 * <p>The inventory never holds command text. {@code powerOffCommand} names a command defined in the
 * server's configuration (the file named by {@code wakeOnLan.powerOffCommandsFile}), where each
 * name maps to an argument vector whose first element is an absolute program path; the node's
 * address, MAC and id are substituted as whole arguments, and no shell is ever involved. A name is
 * 1 to 63 lowercase letters, digits, {@code .}, {@code _} and {@code -}, starting with a letter or
 * digit ({@link #isCommandName}); the API also refuses a name the server does not define. Without a
 * command the node cannot be powered off by bamel, so no pool picks it for a scale-down.
 *
 * @param broadcast where the magic packet goes, {@code host[:port]}, or null for the default
 * @param probePort the TCP port on {@code mgmtAddress} that answers when the machine is up
 * @param powerOffCommand the name of a power-off command of the server's, or null
 * @param extensions members this version does not declare, kept and written back
 */
public record WakeOnLan(
    String broadcast,
    Integer probePort,
    String powerOffCommand,
    @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  private static final Pattern COMMAND_NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,62}");

  /** The error of a {@code powerOffCommand} that is not a command name, or not a known one. */
  public static final String COMMAND_PROBLEM =
      "must name a power-off command defined in the server's configuration"
          + " (wakeOnLan.powerOffCommandsFile): 1 to 63 lowercase letters, digits, '.', '_' and"
          + " '-', never command text";

  /** Copies {@code extensions}, keeping order; none becomes empty. */
  public WakeOnLan {
    extensions =
        extensions == null || extensions.isEmpty()
            ? Map.of()
            : Collections.unmodifiableMap(new LinkedHashMap<>(extensions));
  }

  /** Settings with a probe port and an optional power-off command name. */
  public static WakeOnLan of(Integer probePort, String powerOffCommand) {
    return new WakeOnLan(null, probePort, powerOffCommand, null);
  }

  /** The node's Wake-on-LAN settings, or {@code null} when it has none (or they cannot be read). */
  public static WakeOnLan of(NodeFacts node) {
    return SettingsJson.readOrNull(node.field(WolInterface.FIELD), WakeOnLan.class);
  }

  /** Whether {@code name} has the form of a power-off command name. */
  public static boolean isCommandName(String name) {
    return name != null && COMMAND_NAME.matcher(name).matches();
  }

  /** Whether bamel can switch the machine off (a power-off command is named). */
  public boolean canPowerOff() {
    return powerOffCommand != null && !powerOffCommand.isBlank();
  }

  /** Checks the broadcast address, the probe port's range and the command name's form. */
  void check(FieldChecks checks) {
    if (broadcast != null) {
      checks.checkAddress("broadcast", broadcast);
    }
    checks.check(
        probePort == null || probePort >= 1 && probePort <= 65535,
        "probePort",
        "must be a port from 1 to 65535");
    if (powerOffCommand != null) {
      checks.check(isCommandName(powerOffCommand), "powerOffCommand", COMMAND_PROBLEM);
    }
  }
}
