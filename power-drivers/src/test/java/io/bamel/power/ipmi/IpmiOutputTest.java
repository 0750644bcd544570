package io.bamel.power.ipmi;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.power.BmcPowerState;
import io.bamel.power.PowerException;
import io.bamel.power.PowerException.Reason;
import io.bamel.power.process.ProcessResult;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class IpmiOutputTest {

  @Test
  void parsesThePowerState() {
    assertThat(IpmiOutput.powerState("Chassis Power is on\n")).isEqualTo(BmcPowerState.ON);
    assertThat(IpmiOutput.powerState("Loading IANA PEN Registry...\nChassis Power is off\n"))
        .isEqualTo(BmcPowerState.OFF);
    assertThat(IpmiOutput.powerState("garbage")).isEqualTo(BmcPowerState.UNKNOWN);
  }

  @Test
  void parsesADcmiPowerReading() {
    String out =
        """

            Instantaneous power reading:                   187 Watts
            Minimum during sampling period:                 92 Watts
            Maximum during sampling period:                310 Watts
        """;
    assertThat(IpmiOutput.watts(out)).isEqualTo(OptionalDouble.of(187));
    assertThat(IpmiOutput.watts("nothing")).isEmpty();
  }

  @Test
  void readsHardwareFromFruWithoutTheBmcsOwnMac() {
    String fru =
        """
         Product Manufacturer  : Supermicro
         Product Name          : SYS-1029P
         Product Serial        : S1234567
        """;
    var info = IpmiOutput.hardware(fru);
    assertThat(info.manufacturer()).isEqualTo("Supermicro");
    assertThat(info.model()).isEqualTo("SYS-1029P");
    assertThat(info.serial()).isEqualTo("S1234567");
    assertThat(info.macAddresses()).as("lan print's MAC is the BMC's, not the host's").isEmpty();
    var board =
        IpmiOutput.hardware(
            """
             Board Mfg             : Dell Inc.
             Board Product         : PowerEdge R640
             Board Serial          : CN1234
            """);
    assertThat(board.manufacturer()).isEqualTo("Dell Inc.");
    assertThat(board.model()).isEqualTo("PowerEdge R640");
    assertThat(board.serial()).isEqualTo("CN1234");
  }

  @Test
  void aQuickAmbiguousSessionFailureIsDiagnosedWithVerbose() {
    ProcessResult ambiguous =
        new ProcessResult(1, "", "Error: Unable to establish IPMI v2 / RMCP+ session", false);
    Duration second = Duration.ofSeconds(1);
    assertThat(IpmiOutput.needsDiagnosis(ambiguous, Duration.ofMillis(80), second)).isTrue();
    assertThat(IpmiOutput.needsDiagnosis(ambiguous, Duration.ofSeconds(6), second)).isFalse();
    ProcessResult explained =
        new ProcessResult(1, "", "> RAKP 2 HMAC is invalid\nError: Unable to establish", false);
    assertThat(IpmiOutput.needsDiagnosis(explained, Duration.ofMillis(80), second)).isFalse();
  }

  static Stream<Arguments> failures() {
    return Stream.of(
        Arguments.of(
            "> RAKP 2 HMAC is invalid\nError: Unable to establish IPMI v2 / RMCP+ session",
            false,
            Reason.BAD_CREDENTIALS,
            false),
        Arguments.of(
            "RAKP 2 message indicates an error : unauthorized name",
            false,
            Reason.BAD_CREDENTIALS,
            false),
        Arguments.of(
            "Get Auth Capabilities error\nError: Unable to establish IPMI v2 / RMCP+ session",
            false,
            Reason.UNREACHABLE,
            true),
        Arguments.of(
            "DCMI request failed because: Invalid command (c1)", false, Reason.UNSUPPORTED, false),
        Arguments.of(
            "Set Chassis Power Control to Soft failed: Node busy", false, Reason.BUSY, true),
        Arguments.of(
            "Set Chassis Power Control to Soft failed: Unspecified error",
            false,
            Reason.BMC_ERROR,
            true),
        Arguments.of("", true, Reason.TIMEOUT, true),
        // ipmitool 1.8.19's own lines for a refused cipher suite, role or password
        Arguments.of(
            "Error in open session response message : no matching cipher suite\n\n"
                + "Error: Unable to establish IPMI v2 / RMCP+ session",
            false,
            Reason.INVALID_CONFIG,
            false),
        Arguments.of(
            "Error in open session response message : invalid authentication algorithm\n\n"
                + "Error: Unable to establish IPMI v2 / RMCP+ session",
            false,
            Reason.INVALID_CONFIG,
            false),
        Arguments.of(
            "Error in open session response message : insufficient resources for session\n"
                + "Error: Unable to establish IPMI v2 / RMCP+ session",
            false,
            Reason.INVALID_CONFIG,
            false),
        Arguments.of(
            "Authentication algorithm 0x01 is not what we requested 0x03\n"
                + "Error: Unable to establish IPMI v2 / RMCP+ session",
            false,
            Reason.INVALID_CONFIG,
            false),
        Arguments.of("Unsupported cipher suite ID : 17\n", false, Reason.INVALID_CONFIG, false),
        Arguments.of(
            "Error in open session response message : invalid role\n\n"
                + "Error: Unable to establish IPMI v2 / RMCP+ session",
            false,
            Reason.INVALID_CONFIG,
            false),
        Arguments.of(
            "Error in open session response message : unauthorized role requested\n",
            false,
            Reason.INVALID_CONFIG,
            false),
        Arguments.of(
            "RAKP 2 message indicates an error : insufficient resources for role\n"
                + "Error: Unable to establish IPMI v2 / RMCP+ session",
            false,
            Reason.INVALID_CONFIG,
            false),
        Arguments.of(
            "Set Session Privilege Level to ADMINISTRATOR failed: Unknown (0x81)\n"
                + "Error: Unable to establish IPMI v2 / RMCP+ session",
            false,
            Reason.INVALID_CONFIG,
            false),
        Arguments.of(
            "Set Chassis Power Control to Up/On failed: Insufficient privilege level",
            false,
            Reason.INVALID_CONFIG,
            false),
        Arguments.of(
            "> RAKP 4 message has invalid integrity check value\n"
                + "Error: Unable to establish IPMI v2 / RMCP+ session",
            false,
            Reason.BAD_CREDENTIALS,
            false));
  }

  @Test
  void saysWhichRefusalItWasAndNamesTheSettingsUsed() {
    IpmiAccess access = new IpmiAccess(3, "ADMINISTRATOR");
    PowerException suite =
        IpmiOutput.failure(
            "192.0.2.9:623",
            "chassis power status",
            new ProcessResult(
                1,
                "",
                "Error in open session response message : no matching cipher suite\n\n"
                    + "Error: Unable to establish IPMI v2 / RMCP+ session\n",
                false),
            access);
    assertThat(suite.getMessage())
        .contains("refused cipher suite 3", "no matching cipher suite")
        .doesNotContain("privilege level");
    PowerException role =
        IpmiOutput.failure(
            "192.0.2.9:623",
            "chassis power on",
            new ProcessResult(
                1,
                "",
                "Set Session Privilege Level to ADMINISTRATOR failed: Unknown (0x81)",
                false),
            access);
    assertThat(role.getMessage()).contains("refused privilege level ADMINISTRATOR", "OPERATOR");
    PowerException password =
        IpmiOutput.failure(
            "192.0.2.9:623",
            "chassis power on",
            new ProcessResult(
                1,
                "",
                "Loading IANA PEN Registry...\n> RAKP 2 HMAC is invalid\n"
                    + "Error: Unable to establish IPMI v2 / RMCP+ session\n",
                false),
            access);
    assertThat(password.getMessage()).contains("refused the password", "RAKP 2 HMAC is invalid");
    PowerException user =
        IpmiOutput.failure(
            "192.0.2.9:623",
            "chassis power on",
            new ProcessResult(
                1, "", "RAKP 2 message indicates an error : unauthorized name\n", false),
            access);
    assertThat(user.getMessage()).contains("does not know the user");
  }

  @Test
  void aRefusalSaidPlainlyNeedsNoVerboseRerun() {
    Duration second = Duration.ofSeconds(1);
    for (String stderr :
        List.of(
            "Error in open session response message : no matching cipher suite\n"
                + "Error: Unable to establish IPMI v2 / RMCP+ session",
            "Set Session Privilege Level to ADMINISTRATOR failed: Unknown (0x81)\n"
                + "Error: Unable to establish IPMI v2 / RMCP+ session")) {
      assertThat(
              IpmiOutput.needsDiagnosis(
                  new ProcessResult(1, "", stderr, false), Duration.ofMillis(50), second))
          .as(stderr)
          .isFalse();
    }
  }

  @ParameterizedTest
  @MethodSource("failures")
  void classifiesFailures(
      String stderr, boolean timedOut, Reason reason, boolean transientFailure) {
    PowerException e =
        IpmiOutput.failure(
            "192.0.2.9:623", "chassis power status", new ProcessResult(1, "", stderr, timedOut));
    assertThat(e.reason()).isEqualTo(reason);
    assertThat(e.isTransient()).isEqualTo(transientFailure);
    assertThat(e.getMessage()).contains("192.0.2.9:623");
  }
}
