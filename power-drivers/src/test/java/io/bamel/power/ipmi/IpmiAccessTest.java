package io.bamel.power.ipmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IpmiAccessTest {

  private static final BmcEndpoint BMC = BmcEndpoint.of("192.0.2.1", "rack-a");

  @Test
  void defaultsToSuite3AndAdministrator() throws Exception {
    assertThat(IpmiAccess.of(BMC, IpmiConfig.defaults()))
        .isEqualTo(new IpmiAccess(3, "ADMINISTRATOR"));
  }

  @Test
  void takesTheEndpointsOptionsInAnyCase() throws Exception {
    BmcEndpoint bmc =
        BMC.withOption(IpmiDriver.OPTION_CIPHER_SUITE, " 17 ")
            .withOption(IpmiDriver.OPTION_PRIVILEGE, "operator");
    assertThat(IpmiAccess.of(bmc, IpmiConfig.defaults())).isEqualTo(new IpmiAccess(17, "OPERATOR"));
    assertThat(
            IpmiAccess.of(
                    BMC.withOption(IpmiDriver.OPTION_CIPHER_SUITE, "0"), IpmiConfig.defaults())
                .cipherSuite())
        .isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"18", "-1", "3a", "255", "three"})
  void refusesACipherSuiteIpmitoolDoesNotKnow(String suite) {
    assertThatThrownBy(
            () ->
                IpmiAccess.of(
                    BMC.withOption(IpmiDriver.OPTION_CIPHER_SUITE, suite), IpmiConfig.defaults()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(PowerException.Reason.INVALID_CONFIG);
              assertThat(e.getMessage()).contains("cipherSuite", "0 to 17", suite);
            });
  }

  @ParameterizedTest
  @ValueSource(strings = {"ADMIN", "CALLBACK", "OEM", "root"})
  void refusesAnotherPrivilegeLevel(String privilege) {
    assertThatThrownBy(
            () ->
                IpmiAccess.of(
                    BMC.withOption(IpmiDriver.OPTION_PRIVILEGE, privilege), IpmiConfig.defaults()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(PowerException.Reason.INVALID_CONFIG);
              assertThat(e.getMessage()).contains("privilege", "USER, OPERATOR, ADMINISTRATOR");
            });
  }
}
