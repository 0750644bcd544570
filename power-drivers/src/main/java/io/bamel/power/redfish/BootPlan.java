package io.bamel.power.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.power.BootDevice;
import io.bamel.power.BootOverride;
import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The boot override PATCH for a request, from what the system's {@code Boot} object allows. Pure.
 *
 * <ul>
 *   <li>Target: PXE is {@code Pxe}, disk is {@code Hdd}; refused (unsupported) when {@code
 *       BootSourceOverrideTarget@Redfish.AllowableValues} is published without it.
 *   <li>Enabled: persistent is {@code Continuous}, once is {@code Once}. Where {@code
 *       BootSourceOverrideEnabled@Redfish.AllowableValues} is published without {@code Continuous}
 *       (Lenovo XCC), a persistent override is set {@code Once} with a note (the caller sets it
 *       again before each boot); without {@code Once}, a one-time override is refused.
 *   <li>Mode: sent as asked ({@code UEFI} or {@code Legacy}; refused when the published {@code
 *       BootSourceOverrideMode@Redfish.AllowableValues} lacks it, when none are published and the
 *       system reports another mode, or when its {@code Boot} has no {@code BootSourceOverrideMode}
 *       at all). Not asked: the system's current mode is sent back where the mode is writable
 *       (allowable values published), because Supermicro resets a mode that is not sent to {@code
 *       Legacy}; elsewhere the mode is not sent and stays as it is.
 * </ul>
 *
 * @param body the PATCH body
 * @param enabled the {@code BootSourceOverrideEnabled} sent
 * @param notes fallbacks taken, for the result
 * @param summary what was sent, as {@code Boot Pxe Once UEFI}
 */
record BootPlan(ObjectNode body, String enabled, List<String> notes, String summary) {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ONCE = RedfishNames.BOOT_ONCE;
  private static final String CONTINUOUS = RedfishNames.BOOT_CONTINUOUS;

  /** {@code Property@Redfish.AllowableValues}. */
  private static String allowable(String property) {
    return property + RedfishNames.ALLOWABLE_VALUES_ANNOTATION;
  }

  static BootPlan of(JsonNode boot, BootOverride request) throws TerminalPowerException {
    String target =
        request.device() == BootDevice.PXE ? RedfishNames.BOOT_PXE : RedfishNames.BOOT_HDD;
    Optional<List<String>> targets =
        strings(boot.path(allowable(RedfishNames.BOOT_SOURCE_OVERRIDE_TARGET)));
    if (targets.isPresent() && !targets.get().contains(target)) {
      throw unsupported("boot override target " + target, targets.get());
    }
    List<String> notes = new ArrayList<>();
    Optional<List<String>> enabledValues =
        strings(boot.path(allowable(RedfishNames.BOOT_SOURCE_OVERRIDE_ENABLED)));
    String enabled;
    if (request.persistent()) {
      if (enabledValues.isPresent() && !enabledValues.get().contains(CONTINUOUS)) {
        if (!enabledValues.get().contains(ONCE)) {
          throw unsupported("BootSourceOverrideEnabled Continuous or Once", enabledValues.get());
        }
        enabled = ONCE;
        notes.add(onceInsteadOfContinuous(enabledValues.get().toString()));
      } else {
        enabled = CONTINUOUS;
      }
    } else {
      if (enabledValues.isPresent() && !enabledValues.get().contains(ONCE)) {
        throw unsupported("BootSourceOverrideEnabled Once", enabledValues.get());
      }
      enabled = ONCE;
    }
    String current = boot.path(RedfishNames.BOOT_SOURCE_OVERRIDE_MODE).asText("");
    Optional<List<String>> modes =
        strings(boot.path(allowable(RedfishNames.BOOT_SOURCE_OVERRIDE_MODE)));
    String mode = null;
    if (request.mode() != null) {
      mode = request.mode().redfishValue();
      if (modes.isPresent()) {
        if (!modes.get().contains(mode)) {
          throw unsupported("BootSourceOverrideMode " + mode, modes.get());
        }
      } else if (!boot.has(RedfishNames.BOOT_SOURCE_OVERRIDE_MODE)) {
        // DMTF's public-bladed: a Boot without the property; the PATCH would be refused (400)
        throw new TerminalPowerException(
            PowerException.Reason.UNSUPPORTED,
            "the BMC has no BootSourceOverrideMode (its Boot lacks the property); asked for "
                + mode
                + ": leave the boot mode out");
      } else if (!current.isEmpty()) {
        if (!current.equals(mode)) {
          throw new TerminalPowerException(
              PowerException.Reason.UNSUPPORTED,
              "the BMC does not let bamel change BootSourceOverrideMode (it is "
                  + current
                  + " and no other mode is offered); asked for "
                  + mode);
        }
        mode = null; // already the mode asked for: nothing to send
      }
    } else if (modes.isPresent() && modes.get().contains(current)) {
      mode = current; // kept: sent back, as a BMC resets an unsent mode
    }
    ObjectNode body = JSON.createObjectNode();
    ObjectNode patch = body.putObject(RedfishNames.BOOT);
    patch.put(RedfishNames.BOOT_SOURCE_OVERRIDE_TARGET, target);
    patch.put(RedfishNames.BOOT_SOURCE_OVERRIDE_ENABLED, enabled);
    if (mode != null) {
      patch.put(RedfishNames.BOOT_SOURCE_OVERRIDE_MODE, mode);
    }
    String summary =
        RedfishNames.BOOT + " " + target + " " + enabled + (mode != null ? " " + mode : "");
    return new BootPlan(body, enabled, notes, summary);
  }

  /** The same override for the next boot only: after a BMC refused {@code Continuous}. */
  BootPlan once(String why) {
    ObjectNode copy = body.deepCopy();
    ((ObjectNode) copy.path(RedfishNames.BOOT))
        .put(RedfishNames.BOOT_SOURCE_OVERRIDE_ENABLED, ONCE);
    List<String> more = new ArrayList<>(notes);
    more.add(onceInsteadOfContinuous(why));
    return new BootPlan(copy, ONCE, more, summary.replace(" " + CONTINUOUS, " " + ONCE));
  }

  private static String onceInsteadOfContinuous(String why) {
    return "the BMC offers no persistent boot override (" + why + "): set for the next boot only";
  }

  private static Optional<List<String>> strings(JsonNode values) {
    if (!values.isArray() || values.isEmpty()) {
      return Optional.empty();
    }
    List<String> list = new ArrayList<>();
    values.forEach(v -> list.add(v.asText()));
    return Optional.of(list);
  }

  private static TerminalPowerException unsupported(String what, List<String> allowed) {
    return new TerminalPowerException(
        PowerException.Reason.UNSUPPORTED,
        "the BMC does not offer " + what + " (it allows " + allowed + ")");
  }
}
