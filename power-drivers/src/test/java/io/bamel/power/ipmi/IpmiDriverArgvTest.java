package io.bamel.power.ipmi;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.Deadline;
import io.bamel.power.credentials.Credentials;
import io.bamel.power.process.ProcessResult;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the IPMI driver hands to ipmitool, with a recording process runner. */
class IpmiDriverArgvTest {

  @Test
  void thePasswordGoesInTheEnvironmentAndTheSettingsInArgv() throws Exception {
    List<List<String>> argvs = new ArrayList<>();
    List<Map<String, String>> environments = new ArrayList<>();
    IpmiDriver driver =
        new IpmiDriver(
            name -> Credentials.of("operator", "pw-Secret-1"),
            IpmiConfig.defaults().withImplementation(IpmiImplementation.IPMITOOL),
            (argv, env, timeout) -> {
              argvs.add(argv);
              environments.add(env);
              return new ProcessResult(0, "Chassis Power is on\n", "", false);
            },
            Clock.systemUTC(),
            d -> {});
    BmcEndpoint bmc =
        BmcEndpoint.of("203.0.113.3:1623", "rack-a")
            .withOption(IpmiDriver.OPTION_CIPHER_SUITE, "17")
            .withOption(IpmiDriver.OPTION_PRIVILEGE, "OPERATOR");

    assertThat(driver.bmcPowerState(bmc, Deadline.in(Duration.ofSeconds(5))))
        .isEqualTo(BmcPowerState.ON);

    List<String> argv = argvs.get(0);
    assertThat(String.join(" ", argv))
        .contains("-I lanplus -H 203.0.113.3 -p 1623 -U operator -E -C 17 -L OPERATOR")
        .endsWith("chassis power status")
        .doesNotContain("pw-Secret-1")
        .doesNotContain(" -P ");
    assertThat(environments.get(0)).containsEntry("IPMI_PASSWORD", "pw-Secret-1");
  }

  @Test
  void anInvalidCipherSuiteOrPrivilegeIsRefusedBeforeIpmitoolRuns() {
    List<List<String>> argvs = new ArrayList<>();
    IpmiDriver driver =
        new IpmiDriver(
            name -> Credentials.of("operator", "pw"),
            IpmiConfig.defaults().withImplementation(IpmiImplementation.IPMITOOL),
            (argv, env, timeout) -> {
              argvs.add(argv);
              return new ProcessResult(0, "Chassis Power is on\n", "", false);
            },
            Clock.systemUTC(),
            d -> {});
    for (BmcEndpoint bad :
        List.of(
            BmcEndpoint.of("203.0.113.3", "rack-a")
                .withOption(IpmiDriver.OPTION_CIPHER_SUITE, "18"),
            BmcEndpoint.of("203.0.113.3", "rack-a")
                .withOption(IpmiDriver.OPTION_PRIVILEGE, "ROOT"))) {
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> driver.bmcPowerState(bad, Deadline.in(Duration.ofSeconds(5))))
          .isInstanceOfSatisfying(
              io.bamel.power.TerminalPowerException.class,
              e ->
                  assertThat(e.reason())
                      .isEqualTo(io.bamel.power.PowerException.Reason.INVALID_CONFIG));
    }
    assertThat(argvs).isEmpty();
  }
}
