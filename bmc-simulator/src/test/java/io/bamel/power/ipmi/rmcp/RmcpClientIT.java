package io.bamel.power.ipmi.rmcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.TransientPowerException;
import io.bamel.power.sim.Freeipmi;
import io.bamel.power.testing.IpmiTools;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The RMCP+ client against OpenIPMI's ipmi_sim, every reading and every change cross-checked with
 * ipmitool and freeipmi on the same simulator.
 */
class RmcpClientIT {

  @TempDir static Path dir;
  static Lanserv bmc;
  static Path freeipmiConfig;

  RmcpClient client;

  @BeforeAll
  static void start() throws Exception {
    IpmiTools.require();
    bmc = Lanserv.start(dir.resolve("sim"));
    freeipmiConfig = Freeipmi.config(dir, "freeipmi.conf", Lanserv.ADMIN, Lanserv.ADMIN_PASSWORD);
  }

  @AfterAll
  static void stop() throws Exception {
    if (bmc != null) {
      bmc.close();
    }
  }

  @BeforeEach
  void setUp() throws Exception {
    bmc.setPoweredOn(false);
    client = new RmcpClient(new Retransmission(Duration.ofMillis(500), 3), Duration.ofSeconds(20));
  }

  @AfterEach
  void tearDown() throws Exception {
    client.close();
  }

  static Login login(String user, String password, int suite, int privilege) {
    return new Login(
        bmc.address(),
        user.getBytes(StandardCharsets.US_ASCII),
        password.getBytes(StandardCharsets.US_ASCII),
        CipherSuite.of(suite).orElseThrow(),
        privilege);
  }

  static Login admin(int suite) {
    return login(Lanserv.ADMIN, Lanserv.ADMIN_PASSWORD, suite, Login.ADMINISTRATOR);
  }

  IpmiMessage.Response call(Login login, IpmiCommand command) throws PowerException {
    return client.call(login, command, Duration.ofSeconds(10));
  }

  String freeipmiPower() throws Exception {
    return Oracles.freeipmi(freeipmiConfig, "ipmipower", "127.0.0.1:" + bmc.port(), "--stat");
  }

  @Test
  void chassisStatusAgreesWithIpmitoolAndIpmipower() throws Exception {
    for (boolean on : new boolean[] {false, true}) {
      bmc.setPoweredOn(on);
      for (int suite : new int[] {3, 2, 1}) {
        IpmiMessage.Response status = call(admin(suite), IpmiCommand.chassisStatus());
        assertThat(status.ok()).isTrue();
        assertThat(IpmiReplies.powerOn(status.data())).as("suite %d", suite).isEqualTo(on);
      }
      assertThat(bmc.ipmitool("chassis", "power", "status"))
          .contains("Chassis Power is " + (on ? "on" : "off"));
      assertThat(freeipmiPower()).contains(": " + (on ? "on" : "off"));
      assertThat(
              Oracles.freeipmi(
                  freeipmiConfig,
                  "ipmi-chassis",
                  "127.0.0.1:" + bmc.port(),
                  "--get-chassis-status"))
          .containsPattern("System Power\\s*: " + (on ? "on" : "off"));
    }
  }

  @Test
  void chassisControlIsSeenByIpmitoolAndIpmipower() throws Exception {
    Login login = admin(3);
    assertThat(call(login, IpmiCommand.chassisControl(IpmiCommand.ChassisAction.POWER_UP)).ok())
        .isTrue();
    assertThat(bmc.poweredOn()).isTrue();
    assertThat(bmc.ipmitool("chassis", "power", "status")).contains("Chassis Power is on");
    assertThat(freeipmiPower()).contains(": on");
    assertThat(call(login, IpmiCommand.chassisControl(IpmiCommand.ChassisAction.POWER_DOWN)).ok())
        .isTrue();
    assertThat(bmc.ipmitool("chassis", "power", "status")).contains("Chassis Power is off");
    assertThat(freeipmiPower()).contains(": off");
    bmc.setPoweredOn(true);
    int before = bmc.powerSets().size();
    assertThat(call(login, IpmiCommand.chassisControl(IpmiCommand.ChassisAction.POWER_CYCLE)).ok())
        .isTrue();
    // ipmi_sim switches off at once, then on a moment later
    long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!bmc.powerSets().subList(before, bmc.powerSets().size()).contains("1")
        && System.nanoTime() < until) {
      Thread.sleep(100);
    }
    assertThat(bmc.powerSets().subList(before, bmc.powerSets().size())).containsExactly("0", "1");
    assertThat(bmc.ipmitool("chassis", "power", "status")).contains("Chassis Power is on");
    IpmiMessage.Response reset =
        call(login, IpmiCommand.chassisControl(IpmiCommand.ChassisAction.HARD_RESET));
    assertThat(reset.ok()).isTrue();
    IpmiMessage.Response soft =
        call(login, IpmiCommand.chassisControl(IpmiCommand.ChassisAction.SOFT_SHUTDOWN));
    // ipmitool's "chassis power soft" on the same simulator gets the same completion code
    String ipmitoolSoft = bmc.ipmitool("chassis", "power", "soft");
    if (soft.ok()) {
      assertThat(ipmitoolSoft).contains("Chassis Power Control: Soft");
    } else {
      assertThat(ipmitoolSoft).doesNotContain("Chassis Power Control: Soft");
    }
  }

  @Test
  void systemGuidIsTheOneIpmitoolPrints() throws Exception {
    IpmiMessage.Response guid = call(admin(3), IpmiCommand.systemGuid());
    assertThat(guid.ok()).isTrue();
    UUID uuid = IpmiReplies.systemGuid(guid.data());
    String printed = bmc.ipmitool("mc", "guid");
    assertThat(printed.toLowerCase()).contains(uuid.toString());
  }

  @Test
  void bootFlagsAreStoredAsIpmitoolsBootdevStoresThem() throws Exception {
    Login login = admin(3);
    String[][] cases = {{"pxe"}, {"pxe", "options=persistent,efiboot"}, {"disk"}};
    boolean[][] flags = {{true, false, false}, {true, true, true}, {false, false, false}};
    for (int i = 0; i < cases.length; i++) {
      IpmiMessage.Response set =
          call(login, IpmiCommand.bootFlags(flags[i][0], flags[i][1], flags[i][2]));
      assertThat(set.ok()).as(IpmiReplies.completion(set.completionCode())).isTrue();
      String ours = bmc.ipmitool("chassis", "bootparam", "get", "5");
      bmc.ipmitool("chassis", "bootparam", "set", "bootflag", "none");
      String[] argv = new String[cases[i].length + 2];
      argv[0] = "chassis";
      argv[1] = "bootdev";
      System.arraycopy(cases[i], 0, argv, 2, cases[i].length);
      assertThat(bmc.ipmitool(argv)).contains("Set Boot Device to " + cases[i][0]);
      String theirs = bmc.ipmitool("chassis", "bootparam", "get", "5");
      assertThat(ours).as(String.join(" ", cases[i])).isEqualTo(theirs);
      assertThat(ours).contains(flags[i][0] ? "Force PXE" : "Force Boot from default Hard-Drive");
    }
  }

  @Test
  void dcmiPowerReadingAnswersAsIpmitoolSees() throws Exception {
    IpmiMessage.Response reading = call(admin(3), IpmiCommand.dcmiPowerReading());
    String ipmitool = bmc.ipmitool("dcmi", "power", "reading");
    if (reading.ok()) {
      assertThat(ipmitool).contains("Instantaneous power reading");
      assertThat(ipmitool)
          .containsPattern(
              "Instantaneous power reading:\\s*" + IpmiReplies.watts(reading.data()).orElse(0));
    } else {
      // ipmi_sim has no DCMI: both clients are refused
      assertThat(IpmiReplies.completion(reading.completionCode())).isNotEmpty();
      assertThat(ipmitool).doesNotContain("Instantaneous power reading");
    }
  }

  @Test
  void sessionIsKeptAndClosed() throws Exception {
    Login login = admin(3);
    call(login, IpmiCommand.chassisStatus());
    call(login, IpmiCommand.chassisStatus());
    assertThat(client.keptSessions()).isEqualTo(1);
    assertThat(client.closeSessions()).isEqualTo(1);
    assertThat(client.keptSessions()).isZero();
    assertThat(call(login, IpmiCommand.chassisStatus()).ok()).isTrue();
  }

  @Test
  void idleSessionsAreDroppedAndANewOneIsOpened() throws Exception {
    try (RmcpClient brief =
        new RmcpClient(new Retransmission(Duration.ofMillis(500), 3), Duration.ofMillis(200))) {
      Login login = admin(3);
      assertThat(brief.call(login, IpmiCommand.chassisStatus(), Duration.ofSeconds(10)).ok())
          .isTrue();
      assertThat(brief.keptSessions()).isEqualTo(1);
      Thread.sleep(400);
      // the next call sweeps the idle session away and opens a fresh one
      assertThat(brief.call(login, IpmiCommand.chassisStatus(), Duration.ofSeconds(10)).ok())
          .isTrue();
      assertThat(brief.keptSessions()).isEqualTo(1);
    }
  }

  @Test
  void wrongPasswordIsRefusedAsBadCredentials() {
    assertThatThrownBy(
            () -> call(login(Lanserv.ADMIN, "not-the-password", 3, 4), IpmiCommand.chassisStatus()))
        .isInstanceOf(TerminalPowerException.class)
        .satisfies(
            e ->
                assertThat(((PowerException) e).reason())
                    .isEqualTo(PowerException.Reason.BAD_CREDENTIALS))
        .hasMessageContaining("password");
  }

  @Test
  void wrongPasswordDoesNotRideOnAKeptSession() throws Exception {
    call(admin(3), IpmiCommand.chassisStatus());
    assertThatThrownBy(
            () -> call(login(Lanserv.ADMIN, "not-the-password", 3, 4), IpmiCommand.chassisStatus()))
        .isInstanceOf(TerminalPowerException.class);
  }

  @Test
  void unknownUserIsRefusedAsBadCredentials() {
    assertThatThrownBy(() -> call(login("nobody", "whatever", 3, 4), IpmiCommand.chassisStatus()))
        .isInstanceOf(TerminalPowerException.class)
        .satisfies(
            e ->
                assertThat(((PowerException) e).reason())
                    .isEqualTo(PowerException.Reason.BAD_CREDENTIALS))
        .hasMessageContaining("user");
  }

  @Test
  void privilegeTooLowForTheCommandIsRefusedAsIpmitoolIs() throws Exception {
    Login viewer = login(Lanserv.VIEWER, Lanserv.VIEWER_PASSWORD, 3, Login.USER);
    assertThat(IpmiReplies.powerOn(call(viewer, IpmiCommand.chassisStatus()).data())).isFalse();
    IpmiMessage.Response up =
        call(viewer, IpmiCommand.chassisControl(IpmiCommand.ChassisAction.POWER_UP));
    assertThat(IpmiReplies.completion(up.completionCode()))
        .isEqualTo("insufficient privilege level (0xd4)");
    assertThat(bmc.poweredOn()).isFalse();
    assertThat(
            Oracles.ipmitool(
                bmc.port(),
                Lanserv.VIEWER,
                Lanserv.VIEWER_PASSWORD,
                3,
                "-L",
                "USER",
                "chassis",
                "power",
                "on"))
        .contains("Insufficient privilege level");
    assertThat(bmc.poweredOn()).isFalse();
  }

  @Test
  void privilegeLevelIsGrantedExactlyWhenIpmitoolGetsIt() throws Exception {
    // ipmi_sim grants a session at ADMINISTRATOR to a user whose limit is USER: ipmitool can
    // switch on with it, and so can this client; what matters is that both agree.
    String ipmitool =
        Oracles.ipmitool(
            bmc.port(),
            Lanserv.VIEWER,
            Lanserv.VIEWER_PASSWORD,
            3,
            "-L",
            "ADMINISTRATOR",
            "chassis",
            "power",
            "on");
    boolean ipmitoolSwitchedOn = ipmitool.contains("Chassis Power Control: Up/On");
    bmc.setPoweredOn(false);
    Login admin = login(Lanserv.VIEWER, Lanserv.VIEWER_PASSWORD, 3, Login.ADMINISTRATOR);
    boolean weSwitchedOn;
    try {
      weSwitchedOn =
          call(admin, IpmiCommand.chassisControl(IpmiCommand.ChassisAction.POWER_UP)).ok();
    } catch (TerminalPowerException e) {
      assertThat(e.reason()).isEqualTo(PowerException.Reason.INVALID_CONFIG);
      assertThat(e).hasMessageContaining("privilege level ADMINISTRATOR");
      weSwitchedOn = false;
    }
    assertThat(weSwitchedOn).as(ipmitool).isEqualTo(ipmitoolSwitchedOn);
    assertThat(bmc.poweredOn()).isEqualTo(ipmitoolSwitchedOn);
  }

  @Test
  void cipherSuiteTheBmcDoesNotOfferIsRefused() throws Exception {
    // OpenIPMI 2.0's lanserv has no RAKP-HMAC-SHA256: ipmitool is refused suite 17 too
    assertThat(
            Oracles.ipmitool(
                bmc.port(),
                Lanserv.ADMIN,
                Lanserv.ADMIN_PASSWORD,
                17,
                "chassis",
                "power",
                "status"))
        .contains("invalid authentication algorithm");
    assertThatThrownBy(() -> call(admin(17), IpmiCommand.chassisStatus()))
        .isInstanceOf(TerminalPowerException.class)
        .satisfies(
            e ->
                assertThat(((PowerException) e).reason())
                    .isEqualTo(PowerException.Reason.INVALID_CONFIG))
        .hasMessageContaining("cipher suite 17");
  }

  @Test
  void silentBmcIsATransientFailureWithinTheTimeout() throws Exception {
    bmc.freeze();
    try {
      long start = System.nanoTime();
      assertThatThrownBy(
              () -> client.call(admin(3), IpmiCommand.chassisStatus(), Duration.ofSeconds(5)))
          .isInstanceOf(TransientPowerException.class)
          .hasMessageContaining("no answer");
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(6));
    } finally {
      bmc.thaw();
    }
  }
}
