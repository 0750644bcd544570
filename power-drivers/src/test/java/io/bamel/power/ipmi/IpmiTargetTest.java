package io.bamel.power.ipmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.TerminalPowerException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class IpmiTargetTest {

  @ParameterizedTest
  @CsvSource({
    "192.0.2.5, 192.0.2.5, 623",
    "192.0.2.5:6230, 192.0.2.5, 6230",
    "bmc-7.rack.example, bmc-7.rack.example, 623",
    "[2001:db8::5], 2001:db8::5, 623",
    "[2001:db8::5]:1623, 2001:db8::5, 1623"
  })
  void parses(String address, String host, int port) throws Exception {
    assertThat(IpmiTarget.parse(address)).isEqualTo(new IpmiTarget(host, port));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "-oProxyCommand=x", "host:0", "host:99999", "host:abc", "a b"})
  void rejects(String address) {
    assertThatThrownBy(() -> IpmiTarget.parse(address)).isInstanceOf(TerminalPowerException.class);
  }
}
