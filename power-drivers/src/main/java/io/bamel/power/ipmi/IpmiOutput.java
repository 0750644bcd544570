package io.bamel.power.ipmi;

import io.bamel.power.BmcPowerState;
import io.bamel.power.HardwareInfo;
import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.TransientPowerException;
import io.bamel.power.process.ProcessResult;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads ipmitool's output. Pure. */
public final class IpmiOutput {

  private static final Pattern POWER = Pattern.compile("Chassis Power is (on|off)");
  private static final Pattern WATTS =
      Pattern.compile("Instantaneous power reading:\\s*\\+?\\s*(\\d+(?:\\.\\d+)?)\\s*Watts");

  private IpmiOutput() {}

  /** The state in {@code chassis power status} output, or {@link BmcPowerState#UNKNOWN}. */
  public static BmcPowerState powerState(String stdout) {
    Matcher m = POWER.matcher(stdout);
    if (!m.find()) {
      return BmcPowerState.UNKNOWN;
    }
    return m.group(1).equals("on") ? BmcPowerState.ON : BmcPowerState.OFF;
  }

  /** The watts in {@code dcmi power reading} output, if there. */
  public static OptionalDouble watts(String stdout) {
    Matcher m = WATTS.matcher(stdout);
    return m.find() ? OptionalDouble.of(Double.parseDouble(m.group(1))) : OptionalDouble.empty();
  }

  /**
   * Hardware facts from {@code fru print 0} output: manufacturer, model and serial (the product
   * area's, else the board's). No MAC addresses: standard IPMI cannot list the host's NICs, and the
   * MAC {@code lan print} shows is the BMC's own LAN port, not one of the system's.
   */
  public static HardwareInfo hardware(String fru) {
    return new HardwareInfo(
        either(field(fru, "Product Manufacturer"), field(fru, "Board Mfg")),
        either(field(fru, "Product Name"), field(fru, "Board Product")),
        either(field(fru, "Product Serial"), field(fru, "Board Serial")),
        null,
        null,
        null,
        List.of());
  }

  private static String either(String first, String second) {
    return first != null ? first : second;
  }

  private static String field(String text, String name) {
    Matcher m =
        Pattern.compile("^\\s*" + Pattern.quote(name) + "\\s*:\\s*(.+?)\\s*$", Pattern.MULTILINE)
            .matcher(text);
    return m.find() ? m.group(1) : null;
  }

  /** {@link #failure(String, String, ProcessResult, IpmiAccess)} without the access settings. */
  public static PowerException failure(String bmc, String command, ProcessResult result) {
    return failure(bmc, command, result, null);
  }

  /**
   * The typed failure for a run that failed. The message quotes ipmitool's own error line (it never
   * prints the password) and the BMC, never the command line.
   *
   * <ul>
   *   <li>A refused cipher suite is terminal ({@link PowerException.Reason#INVALID_CONFIG}): the
   *       BMC's open-session answer {@code no matching cipher suite}, an {@code invalid ...
   *       algorithm}, or {@code insufficient resources for session} (what iDRAC answers when the
   *       suite is disabled; also a full session table), a negotiated algorithm that is {@code not
   *       what we requested}, or ipmitool's own {@code Unsupported cipher suite ID}.
   *   <li>A refused privilege level is terminal ({@link PowerException.Reason#INVALID_CONFIG}):
   *       {@code invalid role}, {@code unauthorized role requested}, {@code insufficient resources
   *       for role}, {@code Set Session Privilege Level to X failed: ...}, or a command refused for
   *       {@code Insufficient privilege level}.
   *   <li>A refused password or user is terminal ({@link PowerException.Reason#BAD_CREDENTIALS}):
   *       {@code RAKP 2 HMAC is invalid}, {@code invalid integrity check value}, {@code
   *       unauthorized name}.
   *   <li>Unsupported commands are terminal; no answer, busy and a killed run are transient.
   * </ul>
   *
   * @param access the cipher suite and privilege the run used, named in the message ({@code null}:
   *     not named)
   */
  public static PowerException failure(
      String bmc, String command, ProcessResult result, IpmiAccess access) {
    String text = result.stderr() + "\n" + result.stdout();
    String lower = text.toLowerCase(Locale.ROOT);
    String what = command + " on " + bmc;
    String suite = access == null ? "the cipher suite" : "cipher suite " + access.cipherSuite();
    String level = access == null ? "the privilege level" : "privilege level " + access.privilege();
    if (result.timedOut()) {
      return new TransientPowerException(
          PowerException.Reason.TIMEOUT, what + ": ipmitool killed at its timeout");
    }
    if (lower.contains("unsupported cipher suite id")) {
      return new TerminalPowerException(
          PowerException.Reason.INVALID_CONFIG,
          what + ": this host's ipmitool does not support " + suite + ": " + errorLine(text));
    }
    if (lower.contains("open session response message")
            && (lower.contains("cipher suite") || lower.contains("algorithm"))
        || lower.contains("is not what we requested")) {
      return new TerminalPowerException(
          PowerException.Reason.INVALID_CONFIG,
          what
              + ": the BMC refused "
              + suite
              + " ("
              + sessionLine(text)
              + "); set the node's IPMI cipher suite to one the BMC offers (often 17)");
    }
    if (lower.contains("insufficient resources for session")) {
      return new TerminalPowerException(
          PowerException.Reason.INVALID_CONFIG,
          what
              + ": the BMC refused a session with "
              + suite
              + " ("
              + sessionLine(text)
              + "); iDRAC answers so when that suite is disabled (else its session table is"
              + " full): set the node's IPMI cipher suite to one the BMC offers");
    }
    if (lower.contains("invalid role")
        || lower.contains("unauthorized role")
        || lower.contains("insufficient resources for role")
        || lower.matches("(?s).*set session privilege level to \\S+ failed: .*")
        || lower.contains("insufficient privilege")) {
      return new TerminalPowerException(
          PowerException.Reason.INVALID_CONFIG,
          what
              + ": the BMC refused "
              + level
              + " for this user ("
              + sessionLine(text)
              + "); give the node a privilege level the account has (power control needs"
              + " OPERATOR)");
    }
    if (lower.contains("rakp 2 hmac is invalid")
        || lower.contains("invalid integrity check value")
        || lower.contains("unable to read password")) {
      return new TerminalPowerException(
          PowerException.Reason.BAD_CREDENTIALS,
          what + ": the BMC refused the password (" + sessionLine(text) + ")");
    }
    if (lower.contains("unauthorized name")
        || lower.contains("invalid user name")
        || lower.contains("invalid name length")) {
      return new TerminalPowerException(
          PowerException.Reason.BAD_CREDENTIALS,
          what + ": the BMC does not know the user (" + sessionLine(text) + ")");
    }
    if (lower.contains("invalid command")
        || lower.contains("not supported")
        || lower.contains("device not present")) {
      return new TerminalPowerException(
          PowerException.Reason.UNSUPPORTED, what + ": " + errorLine(text));
    }
    if (lower.contains("node busy") || lower.contains("node_busy")) {
      return new TransientPowerException(PowerException.Reason.BUSY, what + ": BMC busy");
    }
    if (lower.contains("unable to establish")
        || lower.contains("no response")
        || lower.contains("get auth capabilities error")
        || lower.contains("timeout")) {
      return new TransientPowerException(
          PowerException.Reason.UNREACHABLE, what + ": " + errorLine(text));
    }
    return new TransientPowerException(
        PowerException.Reason.BMC_ERROR,
        what + ": exit " + result.exitCode() + ": " + errorLine(text));
  }

  /**
   * The line of ipmitool's output that says why the session failed, without the {@code >} marker of
   * a {@code -v} line.
   */
  static String sessionLine(String text) {
    for (String line : text.split("\n")) {
      String trimmed = line.trim();
      if (trimmed.startsWith(">")) {
        trimmed = trimmed.substring(1).trim();
      }
      String lower = trimmed.toLowerCase(Locale.ROOT);
      if (lower.contains("open session response message")
          || lower.contains("rakp 2")
          || lower.contains("rakp 4")
          || lower.contains("privilege")
          || lower.contains("is not what we requested")) {
        return trimmed;
      }
    }
    return errorLine(text);
  }

  /**
   * Whether a failed run should be repeated with {@code -v} to learn why: ipmitool says only
   * "Unable to establish IPMI v2 / RMCP+ session" both for a refused password (at once) and for a
   * BMC that does not answer (after its retransmissions). A run that failed that way faster than
   * one retransmission timeout was answered, so {@code -v} will name the reason.
   */
  public static boolean needsDiagnosis(
      ProcessResult result, Duration elapsed, Duration retransmitTimeout) {
    String text = (result.stderr() + "\n" + result.stdout()).toLowerCase(Locale.ROOT);
    return !result.timedOut()
        && text.contains("unable to establish")
        && !text.contains("rakp")
        && !text.contains("unauthorized")
        && !text.contains("open session response")
        && !text.contains("session privilege level")
        && !text.contains("cipher suite")
        && !text.contains("not what we requested")
        && elapsed.compareTo(retransmitTimeout) < 0;
  }

  /** The most telling line of ipmitool's output. */
  static String errorLine(String text) {
    String best = "";
    for (String line : text.split("\n")) {
      String trimmed = line.trim();
      if (trimmed.isEmpty() || trimmed.startsWith("Loading IANA") || trimmed.startsWith(">")) {
        continue;
      }
      if (trimmed.startsWith("Error") || best.isEmpty() || trimmed.contains("failed")) {
        best = trimmed;
      }
    }
    return best.isEmpty() ? "no output" : best;
  }
}
