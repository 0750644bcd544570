package io.bamel.power.credentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.net.IpLiteral;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The allow-list rules as a table: file, destination, verdict and the reason a person reads. */
class AllowedHostsTest {

  private static final String ABSENT = "<absent>";
  private static final String REQUIRED = "<absent, required>";

  private static AllowedHosts list(String file) {
    return switch (file) {
      case ABSENT -> AllowedHosts.absent(false);
      case REQUIRED -> AllowedHosts.absent(true);
      default -> AllowedHosts.parse(file.replace("\\n", "\n"));
    };
  }

  private static List<InetAddress> addresses(String spaced) {
    return Arrays.stream(spaced.trim().split("\\s+"))
        .filter(s -> !s.isEmpty())
        .map(s -> IpLiteral.parse(s).orElseThrow())
        .toList();
  }

  @ParameterizedTest(name = "[{index}] {0} | {1}://{2} {3} insecure={4} -> {5}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
          """
          # file                                  | scheme | host              | resolved                  | insecure | allowed | reason contains
          <absent>                                | https  | bmc.example.com   | 192.0.2.5                 | false    | true    | no allowed-hosts file
          <absent>                                | ipmi   | 192.0.2.5         | 192.0.2.5                 | false    | true    | no allowed-hosts file
          <absent>                                | http   | 192.0.2.5         | 192.0.2.5                 | false    | false   | plain http:// needs an http:// entry
          <absent>                                | https  | 192.0.2.5         | 192.0.2.5                 | true     | false   | insecureSkipVerify needs the line insecure-skip-verify
          <absent, required>                      | https  | 192.0.2.5         | 192.0.2.5                 | false    | false   | no allowed-hosts file, and this server requires one
          192.0.2.5                               | https  | 192.0.2.5         | 192.0.2.5                 | false    | true    | allowed by the entries 192.0.2.5
          192.0.2.5                               | https  | 192.0.2.6         | 192.0.2.6                 | false    | false   | 192.0.2.6 is not in its allowed-hosts file
          192.0.2.5                               | ipmi   | 192.0.2.5         | 192.0.2.5                 | false    | true    | allowed
          192.0.2.0/24                            | https  | 192.0.2.200       | 192.0.2.200               | false    | true    | 192.0.2.0/24
          192.0.2.0/24                            | https  | 198.51.100.1      | 198.51.100.1              | false    | false   | 198.51.100.1 is not in its allowed-hosts file
          192.0.2.9/24                            | https  | 192.0.2.1         | 192.0.2.1                 | false    | true    | 192.0.2.9/24
          0.0.0.0/0                               | https  | 203.0.113.4       | 203.0.113.4               | false    | true    | 0.0.0.0/0
          2001:db8::5                             | https  | 2001:db8::5       | 2001:db8::5               | false    | true    | 2001:db8::5
          [2001:db8::5]                           | https  | [2001:DB8::5]     | 2001:db8::5               | false    | true    | allowed
          2001:db8::/32                           | https  | 2001:db8:7::1     | 2001:db8:7::1             | false    | true    | 2001:db8::/32
          2001:db8::/32                           | https  | 2001:db9::1       | 2001:db9::1               | false    | false   | 2001:db9:0:0:0:0:0:1 is not in its allowed-hosts file
          2001:db8::/32                           | https  | 192.0.2.1         | 192.0.2.1                 | false    | false   | not in its allowed-hosts file
          bmc-7.example.com                       | https  | BMC-7.Example.COM.| 203.0.113.9               | false    | true    | bmc-7.example.com
          bmc-7.example.com                       | https  | bmc-8.example.com | 192.0.2.8                 | false    | false   | 192.0.2.8 (an address of bmc-8.example.com) is not in its allowed-hosts file
          bmc-7.example.com                       | https  | 192.0.2.7         | 192.0.2.7                 | false    | false   | 192.0.2.7 is not in its allowed-hosts file
          *.bmc.example.com                       | https  | r1.bmc.example.com| 203.0.113.9               | false    | true    | *.bmc.example.com
          *.bmc.example.com                       | https  | bmc.example.com   | 203.0.113.9               | false    | false   | not in its allowed-hosts file
          *.bmc.example.com                       | https  | evilbmc.example.com | 203.0.113.9             | false    | false   | not in its allowed-hosts file
          192.0.2.0/24                            | https  | r1.bmc.example.com| 192.0.2.4 192.0.2.5       | false    | true    | 192.0.2.0/24
          192.0.2.0/24                            | https  | r1.bmc.example.com| 192.0.2.4 198.51.100.4    | false    | false   | 198.51.100.4 (an address of r1.bmc.example.com) is not in its allowed-hosts file
          192.0.2.5                               | http   | 192.0.2.5         | 192.0.2.5                 | false    | false   | allowed only over https
          http://192.0.2.5                        | http   | 192.0.2.5         | 192.0.2.5                 | false    | true    | http://192.0.2.5
          http://192.0.2.5                        | https  | 192.0.2.5         | 192.0.2.5                 | false    | true    | http://192.0.2.5
          http://192.0.2.0/24                     | http   | 192.0.2.77        | 192.0.2.77                | false    | true    | allowed
          http://*.lab.example.com                | http   | r9.lab.example.com| 198.51.100.9              | false    | true    | allowed
          bmc-7.example.com                       | http   | bmc-7.example.com | 192.0.2.7                 | false    | false   | allowed only over https
          https://192.0.2.5/                      | https  | 192.0.2.5         | 192.0.2.5                 | false    | true    | allowed
          192.0.2.5                               | https  | 192.0.2.5         | 192.0.2.5                 | true     | false   | does not allow insecureSkipVerify
          192.0.2.5\\ninsecure-skip-verify         | https  | 192.0.2.5         | 192.0.2.5                 | true     | true    | allowed
          insecure-skip-verify                    | https  | 192.0.2.5         | 192.0.2.5                 | true     | false   | 192.0.2.5 is not in its allowed-hosts file
          '# only a comment\\n\\n'                 | https  | 192.0.2.5         | 192.0.2.5                 | false    | false   | not in its allowed-hosts file
          '# rack 7\\n  192.0.2.5   # the BMC\\n'   | https  | 192.0.2.5         | 192.0.2.5                 | false    | true    | allowed
          192.0.2.5                               | https  | bmc.example.com   | -                         | false    | false   | resolved to no address
          """)
  void decides(
      String file,
      String scheme,
      String host,
      String resolved,
      boolean insecure,
      boolean allowed,
      String reason) {
    AllowedHosts.Verdict verdict =
        list(file)
            .check(scheme, host, resolved == null ? List.of() : addresses(resolved), insecure);
    assertThat(verdict.allowed()).as(verdict.reason()).isEqualTo(allowed);
    assertThat(verdict.reason()).contains(reason);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
          192.0.2.0/33                 | line 1: '192.0.2.0/33': the prefix length is at most 32
          2001:db8::/129               | line 1: '2001:db8::/129': the prefix length is at most 128
          192.0.2.0/x                  | line 1: '192.0.2.0/x' is not a CIDR block
          bmc.example.com/24           | line 1: 'bmc.example.com/24' is not a CIDR block
          192.0.2.5:623                | line 1: '192.0.2.5:623': an entry names a host or network without a port
          bmc.example.com:443          | an entry names a host or network without a port
          ftp://192.0.2.5              | line 1: 'ftp://192.0.2.5': only http:// (or https://) may prefix an entry
          http://                      | line 1: 'http://' names no host
          "# ok\\n192.0.2.5 192.0.2.6"  | line 2: '192.0.2.5 192.0.2.6' holds more than one entry
          *                            | line 1: '*' is not an IP address, a CIDR block, a host name or *.domain
          *example.com                 | is not an IP address, a CIDR block, a host name or *.domain
          bmc!.example.com             | is not an IP address, a CIDR block, a host name or *.domain
          insecure-skip-verify yes     | holds more than one entry
          """)
  void refusesMalformedLinesNamingThem(String file, String message) {
    assertThatThrownBy(() -> AllowedHosts.parse(file.replace("\\n", "\n")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message);
  }
}
