package io.bamel.power.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import org.junit.jupiter.api.Test;

class PinnedDnsTest {

  @Test
  void answersOnlyThePinnedHostWithThePinnedAddresses() throws Exception {
    List<InetAddress> checked = List.of(IpLiteral.parse("192.0.2.5").orElseThrow());
    PinnedDns dns = new PinnedDns("BMC-7.Example.com.", checked);

    assertThat(dns.lookup("bmc-7.example.com")).isEqualTo(checked);
    assertThat(dns.lookup("BMC-7.EXAMPLE.COM.")).isEqualTo(checked);
    assertThatThrownBy(() -> dns.lookup("bmc-8.example.com"))
        .isInstanceOf(UnknownHostException.class);
    assertThat(dns).isEqualTo(new PinnedDns("bmc-7.example.com", checked));
  }

  @Test
  void literalsResolveWithoutDnsAndUnknownNamesAreUnreachable() throws Exception {
    assertThat(HostAddresses.resolve("[2001:db8::5]"))
        .containsExactly(IpLiteral.parse("2001:db8::5").orElseThrow());
    assertThatThrownBy(() -> HostAddresses.resolve("bmc-7.bamel.invalid"))
        .hasMessage("cannot resolve the host name bmc-7.bamel.invalid");
  }
}
