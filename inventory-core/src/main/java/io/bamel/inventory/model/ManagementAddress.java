package io.bamel.inventory.model;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A BMC's management address: either a URL ({@code https://192.0.2.5}, {@code
 * https://bmc1/redfish/v1/Systems/1}) for Redfish and Proxmox, or a host with an optional port
 * ({@code 192.0.2.5}, {@code bmc-r1-07.example:623}, {@code [2001:db8::5]:623}) for IPMI and the
 * like. The host is an IPv4 address, a bracketed IPv6 address or an RFC 1123 host name ({@link
 * DnsNames}: labels of at most 63 characters, 253 in all), in a URL as well; a port is 1 to 65535.
 * No user info in URLs (credentials belong in the credential store), no whitespace.
 */
public final class ManagementAddress {

  private static final int MAX_LENGTH = 2048;
  private static final int IPV4_VALID = 0;
  private static final int IPV4_OUT_OF_RANGE = 1;
  private static final int NOT_IPV4 = 2;
  private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:.]+");

  private ManagementAddress() {}

  /** Why {@code text} is not a valid management address, or {@code null} if it is. */
  public static String problem(String text) {
    if (text == null || text.isBlank()) {
      return "must not be empty";
    }
    if (text.length() > MAX_LENGTH) {
      return "must be at most " + MAX_LENGTH + " characters";
    }
    if (!printableAscii(text)) {
      return "must not contain whitespace, control or non-ASCII characters";
    }
    if (text.contains("://")) {
      return urlProblem(text);
    }
    return hostPortProblem(text);
  }

  private static String urlProblem(String text) {
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      return "not a valid URL: " + e.getReason();
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      return "URL scheme must be http or https";
    }
    if (uri.getRawUserInfo() != null) {
      return "must not carry credentials; name a credential in bmcCredentials instead";
    }
    String host = uri.getHost();
    if (host == null) {
      return "URL must name a host (letters, digits, '-' and '.', or an IP address)";
    }
    if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
      return "URL must not have a query or fragment";
    }
    if (uri.getPort() != -1 && (uri.getPort() < 1 || uri.getPort() > 65535)) {
      return "port must be a number from 1 to 65535";
    }
    if (host.startsWith("[")) {
      String literal = host.substring(1, host.length() - 1);
      return IPV6.matcher(literal).matches() && literal.contains(":")
          ? null
          : "not an IPv6 address: " + Texts.quote(literal);
    }
    return hostProblem(host);
  }

  private static String hostPortProblem(String text) {
    String host = text;
    String port = null;
    if (text.startsWith("[")) {
      int end = text.indexOf(']');
      if (end < 0) {
        return "unterminated IPv6 literal";
      }
      host = text.substring(1, end);
      String rest = text.substring(end + 1);
      if (!rest.isEmpty()) {
        if (!rest.startsWith(":")) {
          return "expected ':port' after the IPv6 literal";
        }
        port = rest.substring(1);
      }
      if (!IPV6.matcher(host).matches() || !host.contains(":")) {
        return "not an IPv6 address: " + Texts.quote(host);
      }
    } else {
      int colon = text.lastIndexOf(':');
      if (colon >= 0) {
        if (text.indexOf(':') != colon) {
          return "an IPv6 address must be written in brackets: [addr]:port";
        }
        host = text.substring(0, colon);
        port = text.substring(colon + 1);
      }
      String hostProblem = hostProblem(host);
      if (hostProblem != null) {
        return hostProblem;
      }
    }
    if (port != null) {
      if (!port.matches("\\d{1,5}")
          || Integer.parseInt(port) < 1
          || Integer.parseInt(port) > 65535) {
        return "port must be a number from 1 to 65535";
      }
    }
    return null;
  }

  private static boolean printableAscii(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c <= ' ' || c >= 0x7f) {
        return false;
      }
    }
    return true;
  }

  private static String hostProblem(String host) {
    int octets = ipv4(host);
    if (octets == IPV4_VALID) {
      return null;
    }
    if (octets == IPV4_OUT_OF_RANGE) {
      return "not an IPv4 address: " + Texts.quote(host);
    }
    String problem = DnsNames.hostProblem(host);
    return problem == null
        ? null
        : "not an IP address or RFC 1123 host name: " + Texts.quote(host) + ": " + problem;
  }

  /**
   * Whether {@code host} is four dot-separated groups of one to three ASCII digits ({@link
   * #NOT_IPV4} if not), each at most 255 ({@link #IPV4_VALID}) or not ({@link #IPV4_OUT_OF_RANGE}).
   * No regex: every spec validated checks its address.
   */
  private static int ipv4(String host) {
    int groups = 0;
    int digits = 0;
    int value = 0;
    boolean inRange = true;
    for (int i = 0; i <= host.length(); i++) {
      char c = i == host.length() ? '.' : host.charAt(i);
      if (c == '.') {
        if (digits == 0 || ++groups > 4) {
          return NOT_IPV4;
        }
        inRange &= value <= 255;
        digits = 0;
        value = 0;
      } else if (c >= '0' && c <= '9' && digits < 3) {
        digits++;
        value = value * 10 + (c - '0');
      } else {
        return NOT_IPV4;
      }
    }
    if (groups != 4) {
      return NOT_IPV4;
    }
    return inRange ? IPV4_VALID : IPV4_OUT_OF_RANGE;
  }
}
