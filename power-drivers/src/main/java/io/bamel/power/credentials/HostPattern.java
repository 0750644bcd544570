package io.bamel.power.credentials;

import io.bamel.power.net.IpLiteral;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One entry of an {@link AllowedHosts} file: an IP address, a CIDR block, a host name or a {@code
 * *.domain} suffix, and whether it allows plain {@code http://}. Pure.
 *
 * @param text the entry as written (for messages)
 * @param kind what the entry matches
 * @param value the host name or the domain suffix (with its leading dot); {@code null} for
 *     addresses
 * @param network the network address of an address or CIDR entry
 * @param prefix the prefix length of an address or CIDR entry
 * @param plainHttp whether the entry was written with {@code http://}
 */
record HostPattern(
    String text, Kind kind, String value, InetAddress network, int prefix, boolean plainHttp) {

  /** What an entry matches. */
  enum Kind {
    /** One address or a CIDR block: matched against resolved addresses. */
    NETWORK,
    /** One host name: matched against the name in the BMC address. */
    NAME,
    /** {@code *.domain}: every name below the domain (not the domain itself). */
    SUFFIX
  }

  private static final Pattern DNS_NAME =
      Pattern.compile(
          "(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*");
  private static final Pattern HOST_PORT = Pattern.compile("[^:]+:\\d+|\\[.*]:\\d+");

  /**
   * Parses one entry (comments and blanks already removed).
   *
   * @throws IllegalArgumentException with a message for a person when it is none of the forms
   */
  static HostPattern parse(String entry) {
    String text = entry.toLowerCase(Locale.ROOT);
    boolean http = false;
    String rest = text;
    if (rest.startsWith("http://")) {
      http = true;
      rest = rest.substring("http://".length());
    } else if (rest.startsWith("https://")) {
      rest = rest.substring("https://".length());
    } else if (rest.contains("://")) {
      throw new IllegalArgumentException(
          "'" + entry + "': only http:// (or https://) may prefix an entry");
    }
    if (rest.endsWith("/") && rest.indexOf('/') == rest.length() - 1) {
      rest = rest.substring(0, rest.length() - 1);
    }
    if (rest.isEmpty()) {
      throw new IllegalArgumentException("'" + entry + "' names no host");
    }
    if (rest.contains("/")) {
      return cidr(entry, rest, http);
    }
    Optional<InetAddress> address = IpLiteral.parse(rest);
    if (address.isPresent()) {
      int bits = address.get().getAddress().length * 8;
      return new HostPattern(entry, Kind.NETWORK, null, address.get(), bits, http);
    }
    if (rest.startsWith("*.") && DNS_NAME.matcher(rest.substring(2)).matches()) {
      return new HostPattern(entry, Kind.SUFFIX, rest.substring(1), null, 0, http);
    }
    if (DNS_NAME.matcher(rest).matches()) {
      return new HostPattern(entry, Kind.NAME, rest, null, 0, http);
    }
    if (HOST_PORT.matcher(rest).matches()) {
      throw new IllegalArgumentException(
          "'" + entry + "': an entry names a host or network without a port");
    }
    throw new IllegalArgumentException(
        "'"
            + entry
            + "' is not an IP address, a CIDR block, a host name or *.domain"
            + " (one entry per line)");
  }

  private static HostPattern cidr(String entry, String rest, boolean http) {
    int slash = rest.indexOf('/');
    Optional<InetAddress> base = IpLiteral.parse(rest.substring(0, slash));
    String length = rest.substring(slash + 1);
    if (base.isEmpty() || !length.matches("\\d{1,3}")) {
      throw new IllegalArgumentException(
          "'" + entry + "' is not a CIDR block (want 192.0.2.0/24 or 2001:db8::/32)");
    }
    byte[] bytes = base.get().getAddress();
    int prefix = Integer.parseInt(length);
    if (prefix > bytes.length * 8) {
      throw new IllegalArgumentException(
          "'" + entry + "': the prefix length is at most " + bytes.length * 8);
    }
    for (int bit = prefix; bit < bytes.length * 8; bit++) {
      bytes[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
    }
    try {
      return new HostPattern(
          entry, Kind.NETWORK, null, InetAddress.getByAddress(bytes), prefix, http);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("'" + entry + "' is not a CIDR block", e);
    }
  }

  /** Whether this name or suffix entry matches the (normalized) host name {@code host}. */
  boolean matchesName(String host) {
    return switch (kind) {
      case NAME -> host.equals(value);
      case SUFFIX -> host.endsWith(value) && host.length() > value.length();
      case NETWORK -> false;
    };
  }

  /** Whether this address or CIDR entry contains {@code address}. */
  boolean contains(InetAddress address) {
    if (kind != Kind.NETWORK) {
      return false;
    }
    byte[] want = network.getAddress();
    byte[] have = address.getAddress();
    if (want.length != have.length) {
      return false;
    }
    for (int bit = 0; bit < prefix; bit++) {
      int mask = 0x80 >>> (bit % 8);
      if ((want[bit / 8] & mask) != (have[bit / 8] & mask)) {
        return false;
      }
    }
    return true;
  }

  /** Whether this entry allows the scheme ({@code http} needs an {@code http://} entry). */
  boolean allowsScheme(String scheme) {
    return plainHttp || !"http".equals(scheme);
  }
}
