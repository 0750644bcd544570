package io.bamel.power.credentials;

import io.bamel.power.net.HostAddresses;
import io.bamel.power.net.IpLiteral;
import java.net.InetAddress;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Where a driver is about to send a credential: the protocol, the host as written in the node's
 * address, the addresses it was resolved to (and that the driver will connect to, no others), and
 * whether TLS certificate verification is skipped.
 *
 * @param scheme {@code https}, {@code http} or {@code ipmi}
 * @param host the host name or IP literal from the BMC address
 * @param addresses the resolved addresses the connection is pinned to
 * @param insecureSkipVerify whether the TLS certificate will not be verified
 */
public record Destination(
    String scheme, String host, List<InetAddress> addresses, boolean insecureSkipVerify) {

  /** Normalizes the host and copies the addresses. */
  public Destination {
    host = HostAddresses.normalize(host);
    addresses = List.copyOf(addresses);
  }

  /** For messages: {@code https://bmc.example.com [192.0.2.5]}, or the literal alone. */
  public String describe() {
    String shown = host.contains(":") ? "[" + host + "]" : host;
    String where = scheme + "://" + shown;
    if (IpLiteral.parse(host).isPresent()) {
      return where;
    }
    return where
        + " ["
        + addresses.stream().map(InetAddress::getHostAddress).collect(Collectors.joining(", "))
        + "]";
  }
}
