package io.bamel.power.redfish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.TerminalPowerException;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RedfishAddressTest {

  @ParameterizedTest
  @CsvSource({
    "https://192.0.2.5, https://192.0.2.5/redfish/v1, ''",
    "https://bmc.example:8443/, https://bmc.example:8443/redfish/v1, ''",
    "https://192.0.2.5/redfish/v1/, https://192.0.2.5/redfish/v1, ''",
    "http://127.0.0.1:9000/bmc/n1, http://127.0.0.1:9000/bmc/n1/redfish/v1, ''",
    "https://192.0.2.5/redfish/v1/Systems/System.Embedded.1, https://192.0.2.5/redfish/v1,"
        + " https://192.0.2.5/redfish/v1/Systems/System.Embedded.1",
  })
  void parses(String address, String root, String system) throws Exception {
    RedfishAddress parsed = RedfishAddress.parse(address);
    assertThat(parsed.serviceRoot()).isEqualTo(root);
    assertThat(parsed.systemUri()).isEqualTo(Optional.ofNullable(system).filter(s -> !s.isEmpty()));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "192.0.2.5",
        "ftp://192.0.2.5",
        "https://192.0.2.5/redfish/v1/Chassis/1",
        "https://admin:pw@192.0.2.5"
      })
  void rejects(String address) {
    assertThatThrownBy(() -> RedfishAddress.parse(address))
        .isInstanceOf(TerminalPowerException.class)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(":pw@"));
  }
}
