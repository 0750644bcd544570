package io.bamel.power.net;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class IpLiteralTest {

  @ParameterizedTest
  @CsvSource({
    "192.0.2.5, 192.0.2.5",
    "0.0.0.0, 0.0.0.0",
    "255.255.255.255, 255.255.255.255",
    "2001:db8::5, 2001:db8:0:0:0:0:0:5",
    "[2001:db8::5], 2001:db8:0:0:0:0:0:5",
    "2001:DB8:0:0:0:0:0:5, 2001:db8:0:0:0:0:0:5",
    "::, 0:0:0:0:0:0:0:0",
    "::1, 0:0:0:0:0:0:0:1",
    "1:2:3:4:5:6:7::, 1:2:3:4:5:6:7:0",
    "::ffff:192.0.2.5, 192.0.2.5",
    "64:ff9b::192.0.2.5, 64:ff9b:0:0:0:0:c000:205",
    "1:2:3:4:5:6:192.0.2.5, 1:2:3:4:5:6:c000:205",
  })
  void parsesLiterals(String text, String address) {
    assertThat(IpLiteral.parse(text)).get().extracting(a -> a.getHostAddress()).isEqualTo(address);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "10.1",
        "192.0.2",
        "192.0.2.256",
        "192.0.2.05",
        "bmc.example.com",
        "localhost",
        "1:2:3:4:5:6:7:8:9",
        "1:2:3:4:5:6:7",
        "1::2::3",
        ":::",
        "2001:db8::g",
        "fe80::1%eth0",
        "12345::",
        "::192.0.2",
        "1:2:3:4:5:6:7:192.0.2.5",
      })
  void refusesEverythingElseWithoutDns(String text) {
    assertThat(IpLiteral.parse(text)).isEmpty();
  }
}
