package io.bamel.power.wol;

import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;

/**
 * A {@code host[:port]} option value. Pure.
 *
 * @param host the host name or address
 * @param port the port
 */
public record HostPort(String host, int port) {

  /** Parses {@code value}, with {@code defaultPort} when it names no port. */
  public static HostPort parse(String value, int defaultPort) throws TerminalPowerException {
    String v = value == null ? "" : value.trim();
    int colon = v.lastIndexOf(':');
    String host = colon < 0 ? v : v.substring(0, colon);
    try {
      int port = colon < 0 ? defaultPort : Integer.parseInt(v.substring(colon + 1));
      if (host.isEmpty() || port < 1 || port > 65535) {
        throw new NumberFormatException();
      }
      return new HostPort(host.replace("[", "").replace("]", ""), port);
    } catch (NumberFormatException e) {
      throw new TerminalPowerException(
          PowerException.Reason.INVALID_CONFIG, "not a host[:port]: " + value);
    }
  }
}
