package io.bamel.power.sim.ipmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.Deadline;
import io.bamel.power.PowerException;
import io.bamel.power.Sleeper;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.credentials.CredentialStore;
import io.bamel.power.ipmi.IpmiConfig;
import io.bamel.power.ipmi.IpmiDriver;
import io.bamel.power.process.SystemProcessRunner;
import io.bamel.power.sim.ClientRun;
import io.bamel.power.sim.Freeipmi;
import io.bamel.power.testing.CredentialDirs;
import io.bamel.power.testing.IpmiTools;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bamel's IPMI driver (its native RMCP+ client) against the simulated fleet, with freeipmi's
 * ipmipower reading the same BMCs: both see every BMC's own power state, and each sees the other's
 * changes; a wrong password is a terminal error that changes nothing.
 */
class SimIpmiBamelClientIT {

  static final int BMCS = 40;

  @TempDir static Path dir;
  @AutoClose static SimIpmiFleet fleet;
  static CredentialStore store;
  static Path freeipmi;
  @AutoClose static IpmiDriver driver;

  @BeforeAll
  static void start() throws Exception {
    IpmiTools.require();
    fleet = SimIpmiFleet.start();
    for (int i = 0; i < BMCS; i++) {
      fleet.add("bmc-" + i, i % 3 == 0);
    }
    Path secrets = dir.resolve("secrets");
    CredentialDirs.write(
        secrets, "ipmi-ok", SimIpmiFleet.ADMIN.name(), SimIpmiFleet.ADMIN.password());
    CredentialDirs.write(secrets, "ipmi-bad", SimIpmiFleet.ADMIN.name(), "not-the-password");
    store = new CredentialStore(secrets);
    freeipmi =
        Freeipmi.config(
            dir, "admin.conf", SimIpmiFleet.ADMIN.name(), SimIpmiFleet.ADMIN.password());
    driver =
        new IpmiDriver(
            store,
            IpmiConfig.defaults().withMinInterval(Duration.ofMillis(1)),
            new SystemProcessRunner(),
            Clock.systemUTC(),
            Sleeper.SYSTEM);
  }

  private static BmcEndpoint endpoint(SimIpmiBmc bmc, String credentials, int suite) {
    return BmcEndpoint.of(bmc.address(), credentials)
        .withOption(IpmiDriver.OPTION_CIPHER_SUITE, String.valueOf(suite));
  }

  private static List<SimIpmiBmc> sorted() {
    return fleet.bmcs().stream()
        .sorted((a, b) -> Integer.compare(a.port(), b.port()))
        .collect(Collectors.toList());
  }

  @Test
  void readsEveryBmcsOwnStateAsIpmipowerDoes() throws Exception {
    List<SimIpmiBmc> bmcs = sorted();
    List<BmcPowerState> states = new ArrayList<>();
    try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<BmcPowerState>> reads = new ArrayList<>();
      for (int i = 0; i < bmcs.size(); i++) {
        SimIpmiBmc bmc = bmcs.get(i);
        int suite = i % 2 == 0 ? 3 : 17;
        reads.add(
            pool.submit(
                () ->
                    driver.bmcPowerState(
                        endpoint(bmc, "ipmi-ok", suite), Deadline.in(Duration.ofSeconds(20)))));
      }
      for (Future<BmcPowerState> read : reads) {
        states.add(read.get());
      }
    }
    for (int i = 0; i < bmcs.size(); i++) {
      assertThat(states.get(i))
          .as(bmcs.get(i).id())
          .isEqualTo(bmcs.get(i).poweredOn() ? BmcPowerState.ON : BmcPowerState.OFF);
    }
    // ipmipower reads the same fleet: as many on and off as bamel read
    String hosts = bmcs.stream().map(SimIpmiBmc::address).collect(Collectors.joining(","));
    ClientRun stat = RealClients.ipmipower(freeipmi, hosts, 3, "--stat");
    long on = states.stream().filter(s -> s == BmcPowerState.ON).count();
    assertThat(stat.output().lines().filter(l -> l.endsWith(": on")).count()).isEqualTo(on);
    assertThat(stat.output().lines().filter(l -> l.endsWith(": off")).count())
        .isEqualTo(bmcs.size() - on);
    assertThat(on).isBetween(1L, (long) bmcs.size() - 1);
  }

  @Test
  void eachSeesTheOthersChanges() throws Exception {
    SimIpmiBmc bmc = fleet.add("changes", false);
    BmcEndpoint endpoint = endpoint(bmc, "ipmi-ok", 17);

    driver.powerOn(endpoint, Deadline.in(Duration.ofSeconds(20)));
    assertThat(bmc.poweredOn()).isTrue();
    assertThat(RealClients.ipmipower(freeipmi, bmc.address(), 17, "--stat").output())
        .isEqualTo("127.0.0.1: on\n");

    ClientRun off = RealClients.ipmipower(freeipmi, bmc.address(), 17, "--off");
    assertThat(off.output()).isEqualTo("127.0.0.1: ok\n");
    assertThat(driver.bmcPowerState(endpoint, Deadline.in(Duration.ofSeconds(20))))
        .isEqualTo(BmcPowerState.OFF);
  }

  @Test
  void readsThroughTheDelayAndKeepsItsSession() throws Exception {
    SimIpmiBmc bmc = fleet.add("slow", true);
    BmcEndpoint endpoint = endpoint(bmc, "ipmi-ok", 3);
    fleet.latency(Duration.ofMillis(100));
    try {
      for (int i = 0; i < 3; i++) {
        assertThat(driver.bmcPowerState(endpoint, Deadline.in(Duration.ofSeconds(20))))
            .isEqualTo(BmcPowerState.ON);
      }
    } finally {
      fleet.latency(Duration.ZERO);
    }
    assertThat(bmc.sessionsActivated()).isEqualTo(1);
    assertThat(bmc.commands()).isGreaterThanOrEqualTo(4); // set privilege, then 3 status reads
  }

  @Test
  void aWrongPasswordIsTerminalAndChangesNothing() throws Exception {
    SimIpmiBmc bmc = fleet.add("wrong", true);
    assertThatThrownBy(
            () ->
                driver.powerOff(
                    endpoint(bmc, "ipmi-bad", 3),
                    io.bamel.power.PowerOffMode.FORCE,
                    Deadline.in(Duration.ofSeconds(20))))
        .isInstanceOf(TerminalPowerException.class)
        .extracting(e -> ((PowerException) e).reason())
        .isEqualTo(PowerException.Reason.BAD_CREDENTIALS);
    assertThat(bmc.poweredOn()).isTrue();
    assertThat(bmc.controls()).isZero();
  }
}
