package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import java.util.Map;

/**
 * Wake-on-LAN settings, used when {@code powerInterface} is {@code wol}: where the magic packet
 * goes ({@code host[:port]}, default {@code 255.255.255.255:9}) and which TCP port on {@code
 * mgmtAddress} answers when the machine is up (the power-state probe).
 */
public record WakeOnLan(
    String broadcast,
    Integer probePort,
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
  }
}
