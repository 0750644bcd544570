package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Wake-on-LAN settings, used when {@code powerInterface} is {@code wol}: where the magic packet
 * goes ({@code host[:port]}, default {@code 255.255.255.255:9}), which TCP port on {@code
 * mgmtAddress} answers when the machine is up (the power-state probe), and the <em>name</em> of the
 * power-off command that switches it off.
 *
 * <p>The inventory never holds command text. {@code powerOffCommand} names a command defined in the
 * server's configuration (the file named by {@code wakeOnLan.powerOffCommandsFile}), where each
 * name maps to an argument vector whose first element is an absolute program path; the node's
 * address, MAC and id are substituted as whole arguments, and no shell is ever involved. A name is
 * 1 to 63 lowercase letters, digits, {@code .}, {@code _} and {@code -}, starting with a letter or
 * digit ({@link #isCommandName}); the API also refuses a name the server does not define. Without a
 * command the node cannot be powered off by bamel, so no pool picks it for a scale-down.
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

  /** Normalises a missing extension map to an empty one. */
  public WakeOnLan {
    extensions = Extensions.copy(extensions);
  }

  /** Whether {@code name} has the form of a power-off command name. */
  public static boolean isCommandName(String name) {
    return name != null && COMMAND_NAME.matcher(name).matches();
  }

  void validate(Validator v) {
    if (broadcast != null) {
      String problem = ManagementAddress.problem(broadcast);
      v.check(problem == null, "broadcast", problem);
    }
    v.check(
        probePort == null || probePort >= 1 && probePort <= 65535,
        "probePort",
        "must be a port from 1 to 65535");
    if (powerOffCommand != null) {
      v.check(isCommandName(powerOffCommand), "powerOffCommand", COMMAND_PROBLEM);
    }
  }

  /** Whether bamel can switch the machine off (a power-off command is named). */
  public boolean canPowerOff() {
    return powerOffCommand != null && !powerOffCommand.isBlank();
  }
}
