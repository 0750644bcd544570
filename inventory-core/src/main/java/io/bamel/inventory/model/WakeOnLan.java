package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import java.util.Map;

/**
 * Wake-on-LAN settings, used when {@code powerInterface} is {@code wol}: where the magic packet
 * goes ({@code host[:port]}, default {@code 255.255.255.255:9}), which TCP port on {@code
 * mgmtAddress} answers when the machine is up (the power-state probe), and the command that
 * switches it off (run with {@code sh -c} on the controller's host, such as an {@code ssh} line
 * using a key; never a secret). Without a command the node cannot be powered off by bamel, so no
 * pool picks it for a scale-down.
 */
public record WakeOnLan(
    String broadcast,
    Integer probePort,
    String powerOffCommand,
    @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  /** Normalises a missing extension map to an empty one. */
  public WakeOnLan {
    extensions = Extensions.copy(extensions);
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
      v.check(
          !powerOffCommand.isBlank() && powerOffCommand.length() <= 1024,
          "powerOffCommand",
          "must be a command of at most 1024 characters");
      v.check(
          powerOffCommand.chars().noneMatch(c -> c < ' ' && c != '\t'),
          "powerOffCommand",
          "must be one line");
    }
  }

  /** Whether bamel can switch the machine off (a power-off command is configured). */
  public boolean canPowerOff() {
    return powerOffCommand != null && !powerOffCommand.isBlank();
  }
}
