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
        "10.0.0.5",
        "10.0.0.5:623",
        "bmc-r1-07.example.com",
        "bmc1:623",
        "[fd00::5]:623",
        "[fd00::5]",
        "https://10.0.0.5",
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
        "10.0.0.256",
        "10.0.0.5:0",
        "10.0.0.5:70000",
        "fd00::5",
        "https://admin:secret@bmc1",
        "ftp://bmc1",
        "https://bmc1/?q=1",
        "bmc 1",
        "bmc1:abc",
        "[fd00::5",
        "-bad-.example"
      })
  void rejectsBadManagementAddresses(String address) {
    assertThat(ManagementAddress.problem(address)).isNotNull();
  }

  @Test
  void credentialsInUrlAreNotEchoed() {
    assertThat(ManagementAddress.problem("https://admin:hunter2@bmc1")).doesNotContain("hunter2");
  }
}
