package io.bamel.power.wol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOffMode;
import io.bamel.power.PowerState;
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
      new WolDriver(WolConfig.defaults(), new SystemProcessRunner(), Sleeper.SYSTEM);

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
      assertThat(driver.powerState(node, deadline())).isEqualTo(PowerState.ON);
    }
    BmcEndpoint node =
        BmcEndpoint.of(MAC, null).withOption(WolDriver.OPTION_PROBE, "127.0.0.1:" + port);
    assertThat(driver.powerState(node, deadline())).isEqualTo(PowerState.OFF);
    assertThat(driver.powerState(BmcEndpoint.of(MAC, null), deadline()))
        .isEqualTo(PowerState.UNKNOWN);
  }

  @Test
  void aProbeHostThatDoesNotResolveIsUnknownNotOff() throws Exception {
    // .invalid never resolves (RFC 2606)
    BmcEndpoint node =
        BmcEndpoint.of(MAC, null).withOption(WolDriver.OPTION_PROBE, "node-7.bamel.invalid:22");
    assertThat(driver.powerState(node, deadline())).isEqualTo(PowerState.UNKNOWN);
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

  @Test
  void powerOffRunsTheConfiguredCommand(@TempDir Path dir) throws Exception {
    Path marker = dir.resolve("off");
    BmcEndpoint node =
        BmcEndpoint.of(MAC, null).withOption(WolDriver.OPTION_POWER_OFF_COMMAND, "touch " + marker);
    driver.powerOff(node, PowerOffMode.FORCE, deadline());
    assertThat(Files.exists(marker)).isTrue();

    BmcEndpoint failing =
        BmcEndpoint.of(MAC, null).withOption(WolDriver.OPTION_POWER_OFF_COMMAND, "exit 3");
    assertThatThrownBy(() -> driver.powerOff(failing, PowerOffMode.FORCE, deadline()))
        .isInstanceOf(TransientPowerException.class)
        .hasMessageContaining("exit code 3");
  }
}
