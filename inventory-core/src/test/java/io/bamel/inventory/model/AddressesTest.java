package io.bamel.inventory.model;

import static org.assertj.core.api.Assertions.assertThat;

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
