package io.bamel.power.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.power.PowerState;
import java.util.ArrayList;
import java.util.List;

/**
 * What the driver reads from a ComputerSystem resource. Pure.
 *
 * @param powerState the {@code PowerState}
 * @param allowableResetTypes the {@code ResetType@Redfish.AllowableValues} (empty when absent)
 * @param resetTarget the Reset action's {@code target}, or {@code null}
 */
record SystemView(PowerState powerState, List<String> allowableResetTypes, String resetTarget) {

  static SystemView of(JsonNode system) {
    JsonNode action = system.path("Actions").path("#ComputerSystem.Reset");
    List<String> allowed = new ArrayList<>();
    action.path("ResetType@Redfish.AllowableValues").forEach(v -> allowed.add(v.asText()));
    String target = action.path("target").asText("");
    return new SystemView(
        parseState(system.path("PowerState").asText("")),
        List.copyOf(allowed),
        target.isEmpty() ? null : target);
  }

  /** The Redfish {@code PowerState} values; {@code Paused} and anything else are unknown. */
  static PowerState parseState(String value) {
    return switch (value) {
      case "On" -> PowerState.ON;
      case "Off" -> PowerState.OFF;
      case "PoweringOn" -> PowerState.POWERING_ON;
      case "PoweringOff" -> PowerState.POWERING_OFF;
      default -> PowerState.UNKNOWN;
    };
  }

  /** The reset action's URI; the conventional one below {@code systemUri} when not announced. */
  String resetTarget(String systemUri) {
    return resetTarget != null ? resetTarget : systemUri + "/Actions/ComputerSystem.Reset";
  }
}
