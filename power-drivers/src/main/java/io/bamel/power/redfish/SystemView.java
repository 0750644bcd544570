package io.bamel.power.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.bamel.power.BmcPowerState;

/**
 * What the driver reads from a ComputerSystem resource. Pure.
 *
 * @param powerState the Redfish {@code PowerState}
 * @param inlineResetTypes the {@code ResetType@Redfish.AllowableValues} node (missing when absent)
 * @param actionInfo the reset action's {@code @Redfish.ActionInfo} link, or {@code null}
 * @param resetTarget the Reset action's {@code target}, or {@code null}
 * @param boot the {@code Boot} object (missing when absent)
 */
record SystemView(
    BmcPowerState powerState,
    JsonNode inlineResetTypes,
    String actionInfo,
    String resetTarget,
    JsonNode boot) {

  static SystemView of(JsonNode system) {
    JsonNode action = system.path(RedfishNames.ACTIONS).path(RedfishNames.RESET_ACTION);
    String target = action.path(RedfishNames.TARGET).asText("");
    String info = action.path(RedfishNames.ACTION_INFO).asText("");
    JsonNode inline =
        action.path(RedfishNames.RESET_TYPE + RedfishNames.ALLOWABLE_VALUES_ANNOTATION);
    return new SystemView(
        parseState(system.path(RedfishNames.POWER_STATE).asText("")),
        inline.isMissingNode() ? MissingNode.getInstance() : inline,
        info.isEmpty() ? null : info,
        target.isEmpty() ? null : target,
        system.path(RedfishNames.BOOT));
  }

  /** The Redfish {@code PowerState} values; {@code Paused} and anything else are unknown. */
  static BmcPowerState parseState(String value) {
    return switch (value) {
      case RedfishNames.STATE_ON -> BmcPowerState.ON;
      case RedfishNames.STATE_OFF -> BmcPowerState.OFF;
      case RedfishNames.STATE_POWERING_ON -> BmcPowerState.POWERING_ON;
      case RedfishNames.STATE_POWERING_OFF -> BmcPowerState.POWERING_OFF;
      default -> BmcPowerState.UNKNOWN;
    };
  }

  /**
   * The reset action's URI; the conventional one below {@code systemUri} when not announced (a
   * trailing {@code /} of the System URI is not doubled).
   */
  String resetTarget(String systemUri) {
    if (resetTarget != null) {
      return resetTarget;
    }
    String base =
        systemUri.endsWith("/") ? systemUri.substring(0, systemUri.length() - 1) : systemUri;
    return base + RedfishNames.RESET_ACTION_PATH;
  }
}
