package io.bamel.power.net;

import io.bamel.power.PowerException;
import io.bamel.power.TransientPowerException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Resolves a BMC's host once: an IP literal is taken as it is, a host name is looked up in DNS. The
 * drivers check the result against a credential's allow-list and then connect only to these
 * addresses ({@link PinnedDns}, or the literal handed to ipmitool), so a DNS answer that changes
 * between the check and the connection cannot redirect a credential.
 */
public final class HostAddresses {

  private HostAddresses() {}

  /**
   * The addresses of {@code host} ({@code [v6]} brackets allowed), in DNS order.
   *
   * @throws TransientPowerException {@link PowerException.Reason#UNREACHABLE} when the name does
   *     not resolve
   */
  public static List<InetAddress> resolve(String host) throws TransientPowerException {
    String name = normalize(host);
    Optional<InetAddress> literal = IpLiteral.parse(name);
    if (literal.isPresent()) {
      return List.of(literal.get());
    }
    try {
      return List.of(InetAddress.getAllByName(name));
    } catch (UnknownHostException | SecurityException e) {
      throw new TransientPowerException(
          PowerException.Reason.UNREACHABLE, "cannot resolve the host name " + name, e);
    }
  }

  /** {@code host} in lower case, without IPv6 brackets or a trailing dot. */
  public static String normalize(String host) {
    String value = host == null ? "" : host.trim().toLowerCase(Locale.ROOT);
    if (value.startsWith("[") && value.endsWith("]")) {
      value = value.substring(1, value.length() - 1);
    }
    while (value.endsWith(".")) {
      value = value.substring(0, value.length() - 1);
    }
    return value;
  }
}
