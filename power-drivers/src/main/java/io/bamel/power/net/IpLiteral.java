package io.bamel.power.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Recognises IP address literals without ever asking DNS: dotted-quad IPv4 ({@code 192.0.2.5}) and
 * IPv6 in any RFC 4291 text form ({@code 2001:db8::5}, {@code ::ffff:192.0.2.5}), with or without
 * brackets. Anything else (a host name, a shortened IPv4 like {@code 10.1}, a zone id) is not a
 * literal. Pure.
 */
public final class IpLiteral {

  private static final Pattern IPV4 =
      Pattern.compile(
          "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
  private static final Pattern HEX_GROUP = Pattern.compile("[0-9a-fA-F]{1,4}");

  private IpLiteral() {}

  /** The address {@code text} spells, when it is an IP literal. */
  public static Optional<InetAddress> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    String value = text;
    if (value.startsWith("[") && value.endsWith("]")) {
      value = value.substring(1, value.length() - 1);
    }
    if (!(IPV4.matcher(value).matches() || isIpv6(value))) {
      return Optional.empty();
    }
    try {
      return Optional.of(InetAddress.getByName(value)); // a checked literal: no lookup happens
    } catch (UnknownHostException e) {
      return Optional.empty();
    }
  }

  private static boolean isIpv6(String value) {
    if (!value.contains(":") || value.indexOf("::") != value.lastIndexOf("::")) {
      return false;
    }
    String body = value;
    int groups = 0;
    int lastColon = value.lastIndexOf(':');
    String tail = value.substring(lastColon + 1);
    if (tail.contains(".")) { // an embedded IPv4 address counts as two groups
      if (!IPV4.matcher(tail).matches()) {
        return false;
      }
      groups = 2;
      body = value.substring(0, lastColon + 1);
      if (!body.endsWith("::")) {
        body = body.substring(0, body.length() - 1);
      }
    }
    boolean compressed = body.contains("::");
    for (String half : compressed ? body.split("::", -1) : new String[] {body}) {
      if (half.isEmpty()) {
        continue;
      }
      for (String group : half.split(":", -1)) {
        if (!HEX_GROUP.matcher(group).matches()) {
          return false;
        }
        groups++;
      }
    }
    return compressed ? groups <= 7 : groups == 8;
  }
}
