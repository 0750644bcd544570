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
  private static final Pattern IPV4 =
      Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
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
    if (text.chars().anyMatch(c -> c <= ' ' || c >= 0x7f)) {
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

  private static String hostProblem(String host) {
    var ipv4 = IPV4.matcher(host);
    if (ipv4.matches()) {
      for (int i = 1; i <= 4; i++) {
        if (Integer.parseInt(ipv4.group(i)) > 255) {
          return "not an IPv4 address: " + Texts.quote(host);
        }
      }
      return null;
    }
    String problem = DnsNames.hostProblem(host);
    return problem == null
        ? null
        : "not an IP address or RFC 1123 host name: " + Texts.quote(host) + ": " + problem;
  }
}
