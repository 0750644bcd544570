package io.bamel.power.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Chooses a {@code ResetType} for what a reset is meant to do, from the types a system allows.
 * Pure.
 *
 * <p>Where the allowed types come from, in order: the reset action's {@code @Redfish.ActionInfo}
 * (its {@code ResetType} parameter's {@code AllowableValues}; OpenBMC and Supermicro publish them
 * only, or only correctly, there), else the inline {@code ResetType@Redfish.AllowableValues} when
 * it is usable (an array of known {@code ResetType} values), else {@link #ASSUMED}.
 *
 * <p>Preference per intent (the first one allowed is sent):
 *
 * <ul>
 *   <li>on: {@code On}, {@code ForceOn}, {@code PushPowerButton} (pressed only while off);
 *   <li>graceful off: {@code GracefulShutdown}, {@code PushPowerButton} (an ACPI power button
 *       press; pressed only while on). Neither allowed: the graceful off is refused as unsupported,
 *       never sent as {@code ForceOff};
 *   <li>force off: {@code ForceOff};
 *   <li>cycle: {@code PowerCycle}, {@code ForceRestart}, else off then on ({@code ForceOff}, then
 *       the on type).
 * </ul>
 */
public final class ResetTypes {

  /** What a reset is meant to do. */
  public enum Intent {
    /** Switch on. */
    ON,
    /** Ask the operating system to shut down. */
    GRACEFUL_OFF,
    /** Cut the power. */
    FORCE_OFF,
    /** Off, then on. */
    CYCLE
  }

  /** The {@code ResetType} values of the Redfish Resource schema. */
  public static final Set<String> KNOWN =
      Set.of(
          RedfishNames.RESET_ON,
          RedfishNames.RESET_FORCE_OFF,
          RedfishNames.RESET_GRACEFUL_SHUTDOWN,
          RedfishNames.RESET_GRACEFUL_RESTART,
          RedfishNames.RESET_FORCE_RESTART,
          RedfishNames.RESET_NMI,
          RedfishNames.RESET_FORCE_ON,
          RedfishNames.RESET_PUSH_POWER_BUTTON,
          RedfishNames.RESET_POWER_CYCLE,
          RedfishNames.RESET_SUSPEND,
          RedfishNames.RESET_PAUSE,
          RedfishNames.RESET_RESUME,
          RedfishNames.RESET_FULL_POWER_CYCLE);

  /** Assumed when the BMC announces nothing usable. */
  public static final List<String> ASSUMED =
      List.of(
          RedfishNames.RESET_ON,
          RedfishNames.RESET_FORCE_OFF,
          RedfishNames.RESET_GRACEFUL_SHUTDOWN,
          RedfishNames.RESET_FORCE_RESTART);

  /** The power button: a toggle, pressed only from the state it leaves. */
  public static final String PUSH_POWER_BUTTON = RedfishNames.RESET_PUSH_POWER_BUTTON;

  private ResetTypes() {}

  /**
   * The allowed reset types and where they came from.
   *
   * @param types the types
   * @param source {@code ActionInfo}, {@code AllowableValues} or {@code assumed}
   */
  public record Allowed(List<String> types, String source) {

    /** Copies the list. */
    public Allowed {
      types = List.copyOf(types);
    }

    /** {@code [On, ForceOff] (from ActionInfo)}, for messages. */
    public String describe() {
      return types + " (" + source + ")";
    }
  }

  /**
   * The allowed types: {@code actionInfo} when given and usable, else {@code inline} when usable,
   * else {@link #ASSUMED}.
   *
   * @param actionInfo the types read from ActionInfo, or empty
   * @param inline the inline {@code ResetType@Redfish.AllowableValues} node (missing when absent)
   */
  public static Allowed allowed(Optional<List<String>> actionInfo, JsonNode inline) {
    if (actionInfo.isPresent() && !actionInfo.get().isEmpty()) {
      return new Allowed(actionInfo.get(), RedfishNames.ACTION_INFO_RESOURCE);
    }
    Optional<List<String>> values = usable(inline);
    if (values.isPresent()) {
      return new Allowed(values.get(), RedfishNames.ALLOWABLE_VALUES);
    }
    return new Allowed(ASSUMED, "assumed");
  }

  /**
   * The values of an allowable-values array when it is usable: a non-empty array of strings, each a
   * known {@code ResetType}. A list holding anything else (a display name such as {@code Graceful
   * Shutdown}, a number, one comma-joined string) is not trusted at all.
   */
  public static Optional<List<String>> usable(JsonNode values) {
    if (values == null || !values.isArray() || values.isEmpty()) {
      return Optional.empty();
    }
    List<String> types = new ArrayList<>();
    for (JsonNode value : values) {
      if (!value.isTextual() || !KNOWN.contains(value.asText())) {
        return Optional.empty();
      }
      types.add(value.asText());
    }
    return Optional.of(types);
  }

  /**
   * The {@code ResetType} values of an ActionInfo resource ({@code Parameters[Name=ResetType]
   * .AllowableValues}), when usable.
   */
  public static Optional<List<String>> fromActionInfo(JsonNode actionInfo) {
    for (JsonNode parameter : actionInfo.path(RedfishNames.PARAMETERS)) {
      if (RedfishNames.RESET_TYPE.equals(parameter.path(RedfishNames.NAME).asText())) {
        return usable(parameter.path(RedfishNames.ALLOWABLE_VALUES));
      }
    }
    return Optional.empty();
  }

  /** The preference order of {@code intent} (cycle: its one-request types only). */
  public static List<String> preference(Intent intent) {
    return switch (intent) {
      case ON -> List.of(RedfishNames.RESET_ON, RedfishNames.RESET_FORCE_ON, PUSH_POWER_BUTTON);
      case GRACEFUL_OFF -> List.of(RedfishNames.RESET_GRACEFUL_SHUTDOWN, PUSH_POWER_BUTTON);
      case FORCE_OFF -> List.of(RedfishNames.RESET_FORCE_OFF);
      case CYCLE -> List.of(RedfishNames.RESET_POWER_CYCLE, RedfishNames.RESET_FORCE_RESTART);
    };
  }

  /** The first type of {@code intent}'s preference that {@code allowed} holds. */
  public static Optional<String> choose(Intent intent, List<String> allowed) {
    List<String> types = allowed == null || allowed.isEmpty() ? ASSUMED : allowed;
    return preference(intent).stream().filter(types::contains).findFirst();
  }

  /** Like {@link #choose} but a terminal "unsupported" failure naming the allowed types. */
  public static String require(Intent intent, Allowed allowed) throws TerminalPowerException {
    return choose(intent, allowed.types()).orElseThrow(() -> unsupported(intent, allowed));
  }

  /**
   * The requests of a power cycle: {@code [PowerCycle]}, {@code [ForceRestart]}, or {@code
   * [ForceOff, <on type>]} where the system allows neither; empty when it cannot be cycled.
   */
  public static List<String> cycle(List<String> allowed) {
    Optional<String> single = choose(Intent.CYCLE, allowed);
    if (single.isPresent()) {
      return List.of(single.get());
    }
    Optional<String> off = choose(Intent.FORCE_OFF, allowed);
    Optional<String> on = choose(Intent.ON, allowed);
    return off.isPresent() && on.isPresent() ? List.of(off.get(), on.get()) : List.of();
  }

  /** The terminal failure for an intent the system allows no type for. */
  public static TerminalPowerException unsupported(Intent intent, Allowed allowed) {
    String what = intent.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    String message =
        intent == Intent.GRACEFUL_OFF
            ? "the BMC offers no graceful power-off (neither GracefulShutdown nor PushPowerButton;"
                + " it allows "
                + allowed.describe()
                + "); bamel does not send ForceOff in its place: ask for a forced power-off"
            : "the BMC allows no reset type for "
                + what
                + " (it allows "
                + allowed.describe()
                + ")";
    return new TerminalPowerException(PowerException.Reason.UNSUPPORTED, message);
  }
}
