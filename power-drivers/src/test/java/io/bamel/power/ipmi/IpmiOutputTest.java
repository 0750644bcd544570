package io.bamel.power.ipmi;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.power.BmcPowerState;
import io.bamel.power.PowerException;
import io.bamel.power.PowerException.Reason;
import io.bamel.power.process.ProcessResult;
import java.time.Duration;
import java.util.OptionalDouble;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
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

  /** ipmitool's last line when it could not open an RMCP+ session, whatever the cause. */
  private static final String NO_SESSION = "\nError: Unable to establish IPMI v2 / RMCP+ session";

  /** One failed ipmitool run: what it wrote on stderr (or that it timed out), and its class. */
  record Failure(String stderr, boolean timedOut, Reason reason, boolean isTransient) {

    /** A refusal: a retry would meet it again. */
    static Failure refusal(Reason reason, String stderr) {
      return new Failure(stderr, false, reason, false);
    }

    /** A failure a retry may clear. */
    static Failure passing(Reason reason, String stderr) {
      return new Failure(stderr, false, reason, true);
    }

    @Override
    public String toString() {
      return reason
          + (isTransient ? " (transient): " : ": ")
          + stderr.strip().lines().findFirst().orElse("(timed out)");
    }
  }

  static Stream<Failure> failures() {
    return Stream.of(
        Failure.refusal(Reason.BAD_CREDENTIALS, "> RAKP 2 HMAC is invalid" + NO_SESSION),
        Failure.refusal(
            Reason.BAD_CREDENTIALS, "RAKP 2 message indicates an error : unauthorized name"),
        Failure.passing(Reason.UNREACHABLE, "Get Auth Capabilities error" + NO_SESSION),
        Failure.refusal(Reason.UNSUPPORTED, "DCMI request failed because: Invalid command (c1)"),
        Failure.passing(Reason.BUSY, "Set Chassis Power Control to Soft failed: Node busy"),
        Failure.passing(
            Reason.BMC_ERROR, "Set Chassis Power Control to Soft failed: Unspecified error"),
        new Failure("", true, Reason.TIMEOUT, true),
        // ipmitool 1.8.19's own lines for a refused cipher suite, role or password
        Failure.refusal(
            Reason.INVALID_CONFIG,
            "Error in open session response message : no matching cipher suite\n" + NO_SESSION),
        Failure.refusal(
            Reason.INVALID_CONFIG,
            "Error in open session response message : invalid authentication algorithm\n"
                + NO_SESSION),
        Failure.refusal(
            Reason.INVALID_CONFIG,
            "Error in open session response message : insufficient resources for session"
                + NO_SESSION),
        Failure.refusal(
            Reason.INVALID_CONFIG,
            "Authentication algorithm 0x01 is not what we requested 0x03" + NO_SESSION),
        Failure.refusal(Reason.INVALID_CONFIG, "Unsupported cipher suite ID : 17\n"),
        Failure.refusal(
            Reason.INVALID_CONFIG,
            "Error in open session response message : invalid role\n" + NO_SESSION),
        Failure.refusal(
            Reason.INVALID_CONFIG,
            "Error in open session response message : unauthorized role requested\n"),
        Failure.refusal(
            Reason.INVALID_CONFIG,
            "RAKP 2 message indicates an error : insufficient resources for role" + NO_SESSION),
        Failure.refusal(
            Reason.INVALID_CONFIG,
            "Set Session Privilege Level to ADMINISTRATOR failed: Unknown (0x81)" + NO_SESSION),
        Failure.refusal(
            Reason.INVALID_CONFIG,
            "Set Chassis Power Control to Up/On failed: Insufficient privilege level"),
        Failure.refusal(
            Reason.BAD_CREDENTIALS,
            "> RAKP 4 message has invalid integrity check value" + NO_SESSION));
  }

  /** The failure of {@code command} that wrote {@code stderr}, run with cipher suite 3 as admin. */
  private static PowerException failureWithSuite3(String command, String stderr) {
    return IpmiOutput.failure(
        "192.0.2.9:623",
        command,
        new ProcessResult(1, "", stderr, false),
        new IpmiAccess(3, "ADMINISTRATOR"));
  }

  @Test
  void saysWhichRefusalItWasAndNamesTheSettingsUsed() {
    PowerException suite =
        failureWithSuite3(
            "chassis power status",
            "Error in open session response message : no matching cipher suite\n"
                + NO_SESSION
                + "\n");
    assertThat(suite.getMessage())
        .contains("refused cipher suite 3", "no matching cipher suite")
        .doesNotContain("privilege level");
    PowerException role =
        failureWithSuite3(
            "chassis power on",
            "Set Session Privilege Level to ADMINISTRATOR failed: Unknown (0x81)");
    assertThat(role.getMessage()).contains("refused privilege level ADMINISTRATOR", "OPERATOR");
    PowerException password =
        failureWithSuite3(
            "chassis power on",
            "Loading IANA PEN Registry...\n> RAKP 2 HMAC is invalid" + NO_SESSION + "\n");
    assertThat(password.getMessage()).contains("refused the password", "RAKP 2 HMAC is invalid");
    PowerException user =
        failureWithSuite3(
            "chassis power on", "RAKP 2 message indicates an error : unauthorized name\n");
    assertThat(user.getMessage()).contains("does not know the user");
  }

  @ParameterizedTest
  @MethodSource("plainRefusals")
  void aRefusalSaidPlainlyNeedsNoVerboseRerun(String stderr) {
    assertThat(
            IpmiOutput.needsDiagnosis(
                new ProcessResult(1, "", stderr, false),
                Duration.ofMillis(50),
                Duration.ofSeconds(1)))
        .isFalse();
  }

  static Stream<String> plainRefusals() {
    return Stream.of(
        "Error in open session response message : no matching cipher suite" + NO_SESSION,
        "Set Session Privilege Level to ADMINISTRATOR failed: Unknown (0x81)" + NO_SESSION);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("failures")
  void classifiesFailures(Failure f) {
    PowerException e =
        IpmiOutput.failure(
            "192.0.2.9:623",
            "chassis power status",
            new ProcessResult(1, "", f.stderr(), f.timedOut()));
    assertThat(e.reason()).isEqualTo(f.reason());
    assertThat(e.isTransient()).isEqualTo(f.isTransient());
    assertThat(e.getMessage()).contains("192.0.2.9:623");
  }
}
