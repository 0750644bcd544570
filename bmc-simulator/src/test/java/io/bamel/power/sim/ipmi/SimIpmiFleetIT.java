package io.bamel.power.sim.ipmi;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.power.sim.ClientRun;
import io.bamel.power.sim.Freeipmi;
import io.bamel.power.testing.IpmiTools;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The simulated IPMI fleet against clients bamel did not write: ipmitool and freeipmi's ipmipower
 * read and switch each BMC's power with cipher suites 3 and 17, and are refused for a wrong
 * password, an unknown user and a privilege too low, as by a real BMC.
 */
class SimIpmiFleetIT {

  static final SimIpmiUser VIEWER = new SimIpmiUser("viewer", "look-only-42", 2);

  @TempDir static Path dir;
  @AutoClose static SimIpmiFleet fleet;
  static Path adminConfig;

  @BeforeAll
  static void start() throws Exception {
    IpmiTools.require();
    fleet = SimIpmiFleet.start();
    adminConfig =
        Freeipmi.config(
            dir, "admin.conf", SimIpmiFleet.ADMIN.name(), SimIpmiFleet.ADMIN.password());
  }

  private static SimIpmiBmc bmc(String id, boolean on) {
    return fleet.add(id, on, List.of(SimIpmiFleet.ADMIN, VIEWER));
  }

  private static ClientRun admin(SimIpmiBmc bmc, int suite, String... command) throws Exception {
    return RealClients.ipmitool(
        bmc.port(),
        SimIpmiFleet.ADMIN.name(),
        SimIpmiFleet.ADMIN.password(),
        suite,
        "ADMINISTRATOR",
        command);
  }

  @ParameterizedTest
  @ValueSource(ints = {3, 17})
  void ipmitoolReadsAndSwitchesThePower(int suite) throws Exception {
    SimIpmiBmc bmc = bmc("ipmitool-" + suite, false);

    assertThat(admin(bmc, suite, "chassis", "power", "status").output())
        .contains("Chassis Power is off");
    ClientRun on = admin(bmc, suite, "chassis", "power", "on");
    assertThat(on.exit()).as(on.output()).isZero();
    assertThat(bmc.poweredOn()).isTrue();
    assertThat(admin(bmc, suite, "chassis", "power", "status").output())
        .contains("Chassis Power is on");
    ClientRun off = admin(bmc, suite, "chassis", "power", "off");
    assertThat(off.exit()).as(off.output()).isZero();
    assertThat(bmc.poweredOn()).isFalse();
    assertThat(bmc.lastAction()).isZero();
    // ipmitool closes each session it opened
    assertThat(bmc.sessionsActivated()).isEqualTo(4);
    assertThat(bmc.openSessions()).isZero();
  }

  @ParameterizedTest
  @ValueSource(ints = {3, 17})
  void ipmipowerReadsAndSwitchesThePowerOfManyBmcs(int suite) throws Exception {
    List<SimIpmiBmc> bmcs = List.of(bmc("fp-a-" + suite, true), bmc("fp-b-" + suite, false));
    String hosts = bmcs.get(0).address() + "," + bmcs.get(1).address();

    ClientRun stat = RealClients.ipmipower(adminConfig, hosts, suite, "--stat");
    // ipmipower names a host without its port, in the order the answers came
    assertThat(stat.output().lines()).containsExactlyInAnyOrder("127.0.0.1: on", "127.0.0.1: off");

    ClientRun on = RealClients.ipmipower(adminConfig, hosts, suite, "--on");
    assertThat(on.output().lines()).containsExactly("127.0.0.1: ok", "127.0.0.1: ok");
    assertThat(bmcs).allMatch(SimIpmiBmc::poweredOn);

    ClientRun off = RealClients.ipmipower(adminConfig, hosts, suite, "--off");
    assertThat(off.output().lines()).containsExactly("127.0.0.1: ok", "127.0.0.1: ok");
    assertThat(bmcs).noneMatch(SimIpmiBmc::poweredOn);
  }

  @Test
  void aWrongPasswordIsRefusedAndChangesNothing() throws Exception {
    SimIpmiBmc bmc = bmc("wrong-password", true);

    ClientRun tool =
        RealClients.ipmitool(
            bmc.port(),
            "admin",
            "not-the-password",
            3,
            "ADMINISTRATOR",
            "-v",
            "chassis",
            "power",
            "off");
    assertThat(tool.exit()).isNotZero();
    assertThat(tool.output()).as(tool.output()).containsIgnoringCase("RAKP 2 HMAC is invalid");

    Path wrong = Freeipmi.config(dir, "wrong.conf", "admin", "not-the-password");
    ClientRun power = RealClients.ipmipower(wrong, bmc.address(), 17, "--off");
    assertThat(power.output()).as(power.output()).contains("127.0.0.1: password invalid");

    assertThat(bmc.poweredOn()).isTrue();
    assertThat(bmc.controls()).isZero();
    assertThat(bmc.sessionsActivated()).isZero();
  }

  @Test
  void anUnknownUserIsRefused() throws Exception {
    SimIpmiBmc bmc = bmc("unknown-user", true);

    ClientRun tool =
        RealClients.ipmitool(
            bmc.port(),
            "mallory",
            "password",
            17,
            "ADMINISTRATOR",
            "-v",
            "chassis",
            "power",
            "off");
    assertThat(tool.exit()).isNotZero();
    assertThat(tool.output()).as(tool.output()).containsIgnoringCase("unauthorized name");

    Path unknown = Freeipmi.config(dir, "unknown.conf", "mallory", "password");
    ClientRun power = RealClients.ipmipower(unknown, bmc.address(), 3, "--off");
    assertThat(power.output()).as(power.output()).contains("127.0.0.1: username invalid");

    assertThat(bmc.poweredOn()).isTrue();
    assertThat(bmc.loginsRefused()).isEqualTo(2);
  }

  @Test
  void aUserLevelAccountReadsButCannotSwitch() throws Exception {
    SimIpmiBmc bmc = bmc("viewer", true);

    ClientRun status =
        RealClients.ipmitool(
            bmc.port(), VIEWER.name(), VIEWER.password(), 3, "USER", "chassis", "power", "status");
    assertThat(status.output()).as(status.output()).contains("Chassis Power is on");
    ClientRun off =
        RealClients.ipmitool(
            bmc.port(), VIEWER.name(), VIEWER.password(), 3, "USER", "chassis", "power", "off");
    assertThat(off.exit()).isNotZero();
    assertThat(off.output()).containsIgnoringCase("insufficient privilege");
    // asking for administrator with a user-level account is refused at RAKP 2
    ClientRun asAdmin =
        RealClients.ipmitool(
            bmc.port(),
            VIEWER.name(),
            VIEWER.password(),
            3,
            "ADMINISTRATOR",
            "chassis",
            "power",
            "off");
    assertThat(asAdmin.exit()).isNotZero();
    assertThat(bmc.poweredOn()).isTrue();
    assertThat(bmc.controls()).isZero();
  }
}
