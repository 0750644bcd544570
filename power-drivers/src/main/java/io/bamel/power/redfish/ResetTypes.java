package io.bamel.power.redfish;

import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import java.util.List;
import java.util.Optional;

/**
 * Chooses a {@code ResetType} from a system's {@code ResetType@Redfish.AllowableValues}. Pure.
 * Where a BMC announces no AllowableValues, the common types {@code On}, {@code ForceOff}, {@code
 * GracefulShutdown} and {@code ForceRestart} are assumed.
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

  /** Assumed when the BMC announces nothing. */
  public static final List<String> ASSUMED =
      List.of("On", "ForceOff", "GracefulShutdown", "ForceRestart");

  private ResetTypes() {}

  /**
   * The reset type for {@code intent}, in order of preference: on: {@code On}, {@code ForceOn};
   * graceful off: {@code GracefulShutdown} (empty if absent: the caller forces instead); force off:
   * {@code ForceOff}; cycle: {@code PowerCycle}, {@code ForceRestart}, {@code GracefulRestart}.
   */
  public static Optional<String> choose(Intent intent, List<String> allowable) {
    List<String> allowed = allowable == null || allowable.isEmpty() ? ASSUMED : allowable;
    List<String> preference =
        switch (intent) {
          case ON -> List.of("On", "ForceOn");
          case GRACEFUL_OFF -> List.of("GracefulShutdown");
          case FORCE_OFF -> List.of("ForceOff");
          case CYCLE -> List.of("PowerCycle", "ForceRestart", "GracefulRestart");
        };
    return preference.stream().filter(allowed::contains).findFirst();
  }

  /** Like {@link #choose} but a terminal "unsupported" failure when nothing fits. */
  public static String require(Intent intent, List<String> allowable)
      throws TerminalPowerException {
    return choose(intent, allowable)
        .orElseThrow(
            () ->
                new TerminalPowerException(
                    PowerException.Reason.UNSUPPORTED,
                    "the BMC allows no reset type for "
                        + intent.name().toLowerCase(java.util.Locale.ROOT)
                        + " (it allows "
                        + allowable
                        + ")"));
  }
}
