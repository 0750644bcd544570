package io.bamel.power.wol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOffMode;
import io.bamel.power.Sleeper;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.TransientPowerException;
import io.bamel.power.process.SystemProcessRunner;
import io.bamel.power.sim.WolListener;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Wake-on-LAN driver against a loopback UDP listener and a loopback TCP probe. */
class WolDriverIT {

  private static final String MAC = "52:54:00:ab:cd:ef";

  private final WolDriver driver =
      new WolDriver(
          WolConfig.defaults(),
          PowerOffCommands.empty(),
          new SystemProcessRunner(),
          Sleeper.SYSTEM);

  private static Deadline deadline() {
    return Deadline.in(Duration.ofSeconds(5));
  }

  @Test
  void sendsTheExactMagicPacketThreeTimes() throws Exception {
    try (WolListener listener = WolListener.start()) {
      BmcEndpoint node =
          BmcEndpoint.of(MAC, null)
              .withOption(WolDriver.OPTION_BROADCAST, "127.0.0.1:" + listener.port());

      driver.powerOn(node, deadline());

      String expected = "ffffffffffff" + "525400abcdef".repeat(16);
      for (int i = 0; i < 3; i++) {
        byte[] packet = listener.next(Duration.ofSeconds(2)).orElseThrow();
        assertThat(HexFormat.of().formatHex(packet)).isEqualTo(expected);
      }
      assertThat(listener.next(Duration.ofMillis(200))).isEmpty();
    }
  }

  @Test
  void theProbeReportsOnAndOff() throws Exception {
    int port;
    try (ServerSocket server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
      port = server.getLocalPort();
      BmcEndpoint node =
          BmcEndpoint.of(MAC, null).withOption(WolDriver.OPTION_PROBE, "127.0.0.1:" + port);
      assertThat(driver.bmcPowerState(node, deadline())).isEqualTo(BmcPowerState.ON);
    }
    BmcEndpoint node =
        BmcEndpoint.of(MAC, null).withOption(WolDriver.OPTION_PROBE, "127.0.0.1:" + port);
    assertThat(driver.bmcPowerState(node, deadline())).isEqualTo(BmcPowerState.OFF);
    assertThat(driver.bmcPowerState(BmcEndpoint.of(MAC, null), deadline()))
        .isEqualTo(BmcPowerState.UNKNOWN);
  }

  @Test
  void aProbeHostThatDoesNotResolveIsUnknownNotOff() throws Exception {
    // .invalid never resolves (RFC 2606)
    BmcEndpoint node =
        BmcEndpoint.of(MAC, null).withOption(WolDriver.OPTION_PROBE, "node-7.bamel.invalid:22");
    assertThat(driver.bmcPowerState(node, deadline())).isEqualTo(BmcPowerState.UNKNOWN);
  }

  @Test
  void powerOffWithoutACommandIsTerminalUnsupported() {
    assertThatThrownBy(
            () -> driver.powerOff(BmcEndpoint.of(MAC, null), PowerOffMode.GRACEFUL, deadline()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.UNSUPPORTED));
    assertThatThrownBy(
            () ->
                driver.setBootDevice(BmcEndpoint.of(MAC, null), BootOverride.pxeOnce(), deadline()))
        .isInstanceOf(TerminalPowerException.class);
  }

  private static WolDriver driverWith(String commandsYaml) {
    return new WolDriver(
        WolConfig.defaults(),
        PowerOffCommands.parse(commandsYaml),
        new SystemProcessRunner(),
        Sleeper.SYSTEM);
  }

  @Test
  void powerOffRunsTheNamedCommandWithEachValueAsOneArgument(@TempDir Path dir) throws Exception {
    WolDriver named =
        driverWith(
            "touch-node: [/usr/bin/env, -C, '"
                + dir
                + "', /usr/bin/touch, '{node}', '{mac}']\n"
                + "fails: [/usr/bin/false, '{node}']\n");
    // A value with spaces and shell syntax is one argument: a file of that name, nothing run.
    String node = "n 7;id>pwned";
    BmcEndpoint endpoint =
        BmcEndpoint.of(MAC, null)
            .withOption(WolDriver.OPTION_POWER_OFF_COMMAND, "touch-node")
            .withOption(WolDriver.OPTION_NODE, node);

    named.powerOff(endpoint, PowerOffMode.FORCE, deadline());

    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(node, MAC);
    }

    BmcEndpoint failing = endpoint.withOption(WolDriver.OPTION_POWER_OFF_COMMAND, "fails");
    assertThatThrownBy(() -> named.powerOff(failing, PowerOffMode.FORCE, deadline()))
        .isInstanceOf(TransientPowerException.class)
        .hasMessageContaining("'fails'")
        .hasMessageContaining("exit code");
  }

  @Test
  void commandTextInTheNodeIsAnUnknownNameAndNothingRuns(@TempDir Path dir) throws Exception {
    Path marker = dir.resolve("x");
    WolDriver named = driverWith("ssh-off: [/usr/bin/touch, '" + dir.resolve("ran") + "']\n");
    String shellText = "touch " + marker + "; id";
    BmcEndpoint endpoint =
        BmcEndpoint.of(MAC, null).withOption(WolDriver.OPTION_POWER_OFF_COMMAND, shellText);

    assertThatThrownBy(() -> named.powerOff(endpoint, PowerOffMode.FORCE, deadline()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(PowerException.Reason.INVALID_CONFIG);
              assertThat(e.getMessage())
                  .contains("no power-off command named '" + shellText + "'")
                  .contains("ssh-off");
            });
    assertThatThrownBy(() -> named.powerCycle(endpoint, deadline()))
        .isInstanceOf(TerminalPowerException.class);
    assertThat(marker).doesNotExist();
    assertThat(dir.resolve("ran")).doesNotExist();
    try (var files = Files.list(dir)) {
      assertThat(files).isEmpty();
    }
  }
}
