package io.bamel.power.credentials;

import io.bamel.power.net.HostAddresses;
import io.bamel.power.net.IpLiteral;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Where one credential may be sent: the {@code allowed-hosts} file of its credential directory.
 * Pure: parsing and checking never touch the network (the caller resolves host names once and
 * passes the addresses it will connect to).
 *
 * <p>The file holds one entry per line; {@code #} starts a comment; blank lines are ignored:
 *
 * <pre>
 * 192.0.2.10               # one address (IPv4 or IPv6, brackets optional)
 * 192.0.2.0/24             # a CIDR block (IPv4 or IPv6: 2001:db8::/32)
 * bmc-r1-07.example.com    # a host name, as written in the BMC address
 * *.bmc.example.com        # every name below bmc.example.com
 * http://192.0.2.77        # the same forms prefixed by http:// also allow plain-HTTP Redfish
 * insecure-skip-verify     # allows bmcTls.insecureSkipVerify with this credential
 * </pre>
 *
 * <p>A BMC address written as a host name is allowed when a name or {@code *.domain} entry matches
 * the name, or else when every address it resolved to lies in an address or CIDR entry. An address
 * written as an IP literal is matched only by address and CIDR entries. Plain {@code http} needs an
 * entry written with {@code http://}; {@code https} and IPMI accept any entry. Without a file
 * ({@link #absent}) a credential may go to any host, but never over plain {@code http} nor with
 * certificate verification skipped, and nowhere at all when the allow-list is required.
 */
public final class AllowedHosts {

  /** The line that allows skipping TLS certificate verification. */
  public static final String INSECURE_SKIP_VERIFY = "insecure-skip-verify";

  /**
   * The outcome of a check.
   *
   * @param allowed whether the credential may be sent
   * @param reason why, for a person (names the entry, host or address that decided)
   */
  public record Verdict(boolean allowed, String reason) {

    static Verdict allow(String reason) {
      return new Verdict(true, reason);
    }

    static Verdict refuse(String reason) {
      return new Verdict(false, reason);
    }
  }

  private final boolean present;
  private final boolean required;
  private final boolean insecureAllowed;
  private final List<HostPattern> entries;

  private AllowedHosts(
      boolean present, boolean required, boolean insecureAllowed, List<HostPattern> entries) {
    this.present = present;
    this.required = required;
    this.insecureAllowed = insecureAllowed;
    this.entries = List.copyOf(entries);
  }

  /**
   * The rule for a credential without an {@code allowed-hosts} file: any host over https without
   * {@code insecureSkipVerify}, or nothing when {@code required}.
   */
  public static AllowedHosts absent(boolean required) {
    return new AllowedHosts(false, required, false, List.of());
  }

  /**
   * Parses the text of an {@code allowed-hosts} file.
   *
   * @throws IllegalArgumentException naming the first malformed line ({@code line 3: ...})
   */
  public static AllowedHosts parse(String text) {
    List<HostPattern> entries = new ArrayList<>();
    boolean insecure = false;
    String[] lines = text.split("\\R", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      int hash = line.indexOf('#');
      String entry = (hash < 0 ? line : line.substring(0, hash)).strip();
      if (i == 0 && entry.startsWith("\uFEFF")) {
        entry = entry.substring(1).strip();
      }
      if (entry.isEmpty()) {
        continue;
      }
      if (entry.toLowerCase(Locale.ROOT).equals(INSECURE_SKIP_VERIFY)) {
        insecure = true;
        continue;
      }
      if (entry.chars().anyMatch(Character::isWhitespace)) {
        throw new IllegalArgumentException(
            "line " + (i + 1) + ": '" + entry + "' holds more than one entry (one per line)");
      }
      try {
        entries.add(HostPattern.parse(entry));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("line " + (i + 1) + ": " + e.getMessage(), e);
      }
    }
    return new AllowedHosts(true, false, insecure, entries);
  }

  /** Whether the credential has an {@code allowed-hosts} file. */
  public boolean present() {
    return present;
  }

  /**
   * Whether the credential may be sent to {@code host}.
   *
   * @param scheme {@code https}, {@code http}, or the name of a non-HTTP protocol ({@code ipmi})
   * @param host the host as written in the BMC address (a name or an IP literal)
   * @param resolvedAddresses the addresses the caller resolved {@code host} to and will connect to
   * @param insecureSkipVerify whether TLS certificate verification would be skipped
   */
  public Verdict check(
      String scheme, String host, List<InetAddress> resolvedAddresses, boolean insecureSkipVerify) {
    String protocol = scheme == null ? "" : scheme.toLowerCase(Locale.ROOT);
    String name = HostAddresses.normalize(host);
    if (!present) {
      if (required) {
        return Verdict.refuse("it has no allowed-hosts file, and this server requires one");
      }
      if (protocol.equals("http")) {
        return Verdict.refuse(
            "plain http:// needs an http:// entry in the credential's allowed-hosts file");
      }
      if (insecureSkipVerify) {
        return Verdict.refuse(
            "insecureSkipVerify needs the line "
                + INSECURE_SKIP_VERIFY
                + " in the credential's allowed-hosts file");
      }
      return Verdict.allow("the credential has no allowed-hosts file");
    }
    if (insecureSkipVerify && !insecureAllowed) {
      return Verdict.refuse(
          "its allowed-hosts file does not allow insecureSkipVerify (the line "
              + INSECURE_SKIP_VERIFY
              + ")");
    }
    if (resolvedAddresses.isEmpty()) {
      return Verdict.refuse(name + " resolved to no address");
    }
    boolean literal = IpLiteral.parse(name).isPresent();
    boolean httpsOnly = false;
    if (!literal) {
      for (HostPattern entry : entries) {
        if (entry.matchesName(name)) {
          if (entry.allowsScheme(protocol)) {
            return Verdict.allow("allowed by the entry '" + entry.text() + "'");
          }
          httpsOnly = true;
        }
      }
    }
    List<String> used = new ArrayList<>();
    for (InetAddress address : resolvedAddresses) {
      HostPattern match = null;
      for (HostPattern entry : entries) {
        if (entry.contains(address)) {
          if (entry.allowsScheme(protocol)) {
            match = entry;
            break;
          }
          httpsOnly = true;
        }
      }
      if (match == null) {
        String what =
            literal
                ? address.getHostAddress()
                : address.getHostAddress() + " (an address of " + name + ")";
        return Verdict.refuse(
            httpsOnly
                ? what
                    + " is allowed only over https by its allowed-hosts file (an http:// entry"
                    + " allows plain http)"
                : what + " is not in its allowed-hosts file");
      }
      used.add(match.text());
    }
    return Verdict.allow(
        "allowed by the entries " + used.stream().distinct().collect(Collectors.joining(", ")));
  }
}
