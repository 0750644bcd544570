package io.bamel.power.ipmi;

import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import java.util.regex.Pattern;

/**
 * An IPMI {@code mgmtAddress}: {@code host}, {@code host:port}, {@code [v6]} or {@code [v6]:port};
 * the port defaults to 623. Pure.
 *
 * @param host the host name or address
 * @param port the UDP port
 */
public record IpmiTarget(String host, int port) {

  /** The standard RMCP port. */
  public static final int DEFAULT_PORT = 623;

  /** The characters a host may hold: compiled once, as every command of the driver parses one. */
  private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._:%-]+");

  /** Parses an address. */
  public static IpmiTarget parse(String address) throws TerminalPowerException {
    String value = address == null ? "" : address.trim();
    String host = value;
    String port = null;
    if (value.startsWith("[")) {
      int close = value.indexOf(']');
      if (close < 0) {
        throw invalid(value);
      }
      host = value.substring(1, close);
      if (close + 1 < value.length()) {
        if (value.charAt(close + 1) != ':') {
          throw invalid(value);
        }
        port = value.substring(close + 2);
      }
    } else if (value.indexOf(':') >= 0 && value.indexOf(':') == value.lastIndexOf(':')) {
      host = value.substring(0, value.indexOf(':'));
      port = value.substring(value.indexOf(':') + 1);
    }
    if (host.isEmpty() || host.startsWith("-") || !HOST.matcher(host).matches()) {
      throw invalid(value);
    }
    try {
      int parsed = port == null ? DEFAULT_PORT : Integer.parseInt(port);
      if (parsed < 1 || parsed > 65535) {
        throw invalid(value);
      }
      return new IpmiTarget(host, parsed);
    } catch (NumberFormatException e) {
      throw invalid(value);
    }
  }

  private static TerminalPowerException invalid(String address) {
    return new TerminalPowerException(
        PowerException.Reason.INVALID_CONFIG, "not an IPMI address (want host[:port]): " + address);
  }
}
