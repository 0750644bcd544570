package io.bamel.inventory.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AddressesTest {

  @ParameterizedTest
  @ValueSource(strings = {"0c:c4:7a:12:34:56", "0C-C4-7A-12-34-56", "00:00:00:00:00:00"})
  void acceptsMacAddresses(String mac) {
    assertThat(MacAddress.isValid(mac)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "0c:c4:7a:12:34",
        "0c:c4:7a:12:34:56:78",
        "0c:c4-7a:12:34:56",
        "zz:c4:7a:12:34:56",
        "0cc47a123456",
        ""
      })
  void rejectsBadMacAddresses(String mac) {
    assertThat(MacAddress.isValid(mac)).isFalse();
  }

  @Test
  void canonicalMacIsLowercaseWithColons() {
    assertThat(MacAddress.canonical("0C-C4-7A-AB-CD-EF")).isEqualTo("0c:c4:7a:ab:cd:ef");
    assertThat(MacAddress.canonical("0c:C4:7a:aB:cd:ef")).isEqualTo("0c:c4:7a:ab:cd:ef");
    String canonical = "0c:c4:7a:ab:cd:ef";
    assertThat(MacAddress.canonical(canonical)).isSameAs(canonical);
  }

  /**
   * The character-by-character check accepts exactly what the regular expression it replaced
   * accepts, and canonicalises as it did, over every single-character change of valid addresses and
   * 20,000 random strings around the length of an address.
   */
  @Test
  void macCheckAgreesWithTheRegularExpression() {
    Pattern regex = Pattern.compile("[0-9a-fA-F]{2}([:-])[0-9a-fA-F]{2}(\\1[0-9a-fA-F]{2}){4}");
    String alphabet = "0123456789abcdefABCDEFgG:-. \u00e9\u0660";
    List<String> cases = new ArrayList<>();
    for (String valid : List.of("0c:c4:7a:12:34:56", "0C-C4-7A-AB-CD-EF", "aA:bB:cC:dD:eE:fF")) {
      for (int i = 0; i < valid.length(); i++) {
        for (char c : alphabet.toCharArray()) {
          cases.add(valid.substring(0, i) + c + valid.substring(i + 1));
        }
        cases.add(valid.substring(0, i) + valid.substring(i + 1));
      }
    }
    Random random = new Random(15);
    for (int n = 0; n < 20_000; n++) {
      StringBuilder b = new StringBuilder();
      int length = 15 + random.nextInt(5);
      for (int i = 0; i < length; i++) {
        b.append(
            i % 3 == 2 && random.nextInt(4) > 0
                ? ":-".charAt(random.nextInt(2))
                : alphabet.charAt(random.nextInt(alphabet.length())));
      }
      cases.add(b.toString());
    }
    int valid = 0;
    for (String text : cases) {
      boolean expected = regex.matcher(text).matches();
      assertThat(MacAddress.isValid(text)).as(text).isEqualTo(expected);
      if (expected) {
        valid++;
        assertThat(MacAddress.canonical(text))
            .as(text)
            .isEqualTo(text.replace('-', ':').toLowerCase(Locale.ROOT));
      }
    }
    assertThat(valid).isGreaterThan(500);
  }

  /**
   * The character-by-character IPv4 check decides hosts as the regular expression it replaced did
   * (an IPv4 address, one with an octet above 255, or a host name to check as such), over 20,000
   * random hosts of digits, dots and letters or of numbers and dots (the valid addresses in a URL
   * too).
   */
  @Test
  void ipv4CheckAgreesWithTheRegularExpression() {
    Pattern ipv4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    String alphabet = "0123456789012345678901234567890123456789....a-";
    Random random = new Random(15);
    int addresses = 0;
    for (int n = 0; n < 20_000; n++) {
      StringBuilder b = new StringBuilder();
      if (n % 2 == 0) {
        int length = 1 + random.nextInt(17);
        for (int i = 0; i < length; i++) {
          b.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
      } else {
        int groups = 3 + random.nextInt(3);
        for (int g = 0; g < groups; g++) {
          b.append(g == 0 ? "" : ".").append(random.nextInt(random.nextBoolean() ? 300 : 10_000));
        }
      }
      String host = b.toString();
      Matcher m = ipv4.matcher(host);
      String expected;
      if (m.matches()) {
        addresses++;
        boolean inRange = true;
        for (int g = 1; g <= 4; g++) {
          inRange &= Integer.parseInt(m.group(g)) <= 255;
        }
        expected = inRange ? null : "not an IPv4 address: " + Texts.quote(host);
      } else {
        String problem = DnsNames.hostProblem(host);
        expected =
            problem == null
                ? null
                : "not an IP address or RFC 1123 host name: " + Texts.quote(host) + ": " + problem;
      }
      assertThat(ManagementAddress.problem(host)).as(host).isEqualTo(expected);
      if (m.matches() && expected == null) {
        assertThat(ManagementAddress.problem("https://" + host)).as(host).isNull();
      }
    }
    assertThat(addresses).isGreaterThan(200);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "192.0.2.5",
        "192.0.2.5:623",
        "bmc-r1-07.example.com",
        "bmc1:623",
        "[2001:db8::5]:623",
        "[2001:db8::5]",
        "https://192.0.2.5",
        "https://bmc1:8443/redfish/v1/Systems/1",
        "http://127.0.0.1:8000"
      })
  void acceptsManagementAddresses(String address) {
    assertThat(ManagementAddress.problem(address)).isNull();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        " ",
        "192.0.2.256",
        "192.0.2.5:0",
        "192.0.2.5:70000",
        "2001:db8::5",
        "https://admin:secret@bmc1",
        "ftp://bmc1",
        "https://bmc1/?q=1",
        "bmc 1",
        "bmc1:abc",
        "[2001:db8::5",
        "-bad-.example",
        "bmc_1.example",
        "https://bmc_1.example",
        "bmc..example",
        "https://bmc1:0",
        "https://bmc1:99999",
        "https://999.0.0.1",
        "https://[zz::1]"
      })
  void rejectsBadManagementAddresses(String address) {
    assertThat(ManagementAddress.problem(address)).isNotNull();
  }

  @Test
  void hostNamesAreRfc1123InUrlsToo() {
    String label63 = "a".repeat(63);
    String name253 = String.join(".", label63, label63, label63, "a".repeat(61));
    assertThat(name253).hasSize(253);
    assertThat(ManagementAddress.problem(name253)).isNull();
    assertThat(ManagementAddress.problem("https://" + name253 + "/redfish/v1")).isNull();
    assertThat(ManagementAddress.problem(name253 + "a")).contains("at most 253");
    assertThat(ManagementAddress.problem("https://" + name253 + "a")).contains("at most 253");
    String host300 = "h" + ".abcdefghi".repeat(30);
    assertThat(ManagementAddress.problem("https://" + host300)).isNotNull();
    assertThat(ManagementAddress.problem("https://" + "a".repeat(64) + ".example"))
        .contains("at most 63");
    assertThat(ManagementAddress.problem("https://BMC-1.Example.COM:8443")).isNull();
  }

  @Test
  void kubernetesNodeNamesAreLowerCaseRfc1123() {
    assertThat(DnsNames.nodeNameProblem("worker-1.dc1.example")).isNull();
    assertThat(DnsNames.nodeNameProblem("Bad Name!")).isNotNull();
    assertThat(DnsNames.nodeNameProblem("Worker-1")).isNotNull();
    assertThat(DnsNames.nodeNameProblem("-worker")).isNotNull();
    assertThat(DnsNames.nodeNameProblem("worker.")).isNotNull();
    assertThat(DnsNames.nodeNameProblem("a".repeat(64))).contains("at most 63");
    assertThat(DnsNames.nodeNameProblem("")).isNotNull();
  }

  @Test
  void credentialsInUrlAreNotEchoed() {
    assertThat(ManagementAddress.problem("https://admin:hunter2@bmc1")).doesNotContain("hunter2");
  }
}
