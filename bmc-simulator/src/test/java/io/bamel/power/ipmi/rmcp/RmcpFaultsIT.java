package io.bamel.power.ipmi.rmcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.PowerException;
import io.bamel.power.TransientPowerException;
import io.bamel.power.testing.IpmiTools;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The RMCP+ client against ipmi_sim through a relay that loses, delays or replays answers, and
 * against an address where nothing listens: each a transient failure or a recovery, never a hang.
 */
class RmcpFaultsIT {

  @TempDir static Path dir;
  static Lanserv bmc;

  @BeforeAll
  static void start() throws Exception {
    IpmiTools.require();
    bmc = Lanserv.start(dir.resolve("sim"));
  }

  @AfterAll
  static void stop() throws Exception {
    if (bmc != null) {
      bmc.close();
    }
  }

  static Login admin(InetSocketAddress address) {
    return new Login(
        address,
        Lanserv.ADMIN.getBytes(StandardCharsets.US_ASCII),
        Lanserv.ADMIN_PASSWORD.getBytes(StandardCharsets.US_ASCII),
        CipherSuite.of(3).orElseThrow(),
        Login.ADMINISTRATOR);
  }

  static RmcpClient client() throws Exception {
    return new RmcpClient(new Retransmission(Duration.ofMillis(300), 3), Duration.ofSeconds(20));
  }

  @Test
  void eachLostAnswerOfAReadIsRetransmittedFor() throws Exception {
    // a read is 6 exchanges: capabilities, open session, RAKP 1, RAKP 3, privilege, status
    for (int lost = 1; lost <= 6; lost++) {
      int drop = lost;
      try (UdpProxy proxy =
              new UdpProxy(
                  bmc.address(), (n, d, previous) -> n == drop ? new byte[0][] : new byte[][] {d});
          RmcpClient client = client()) {
        bmc.setPoweredOn(drop % 2 == 0);
        IpmiMessage.Response status =
            client.call(
                admin(proxy.address()), IpmiCommand.chassisStatus(), Duration.ofSeconds(10));
        assertThat(IpmiReplies.powerOn(status.data()))
            .as("answer %d lost", drop)
            .isEqualTo(drop % 2 == 0);
      }
    }
  }

  @Test
  void anAnswerLateByMoreThanTheRetransmitTimeoutIsAwaitedByTheRetry() throws Exception {
    try (UdpProxy proxy =
            new UdpProxy(
                bmc.address(),
                (n, d, previous) -> {
                  if (n == 6) {
                    Thread.sleep(450); // the status answer, after the first retransmission
                  }
                  return new byte[][] {d};
                });
        RmcpClient client = client()) {
      bmc.setPoweredOn(true);
      IpmiMessage.Response status =
          client.call(admin(proxy.address()), IpmiCommand.chassisStatus(), Duration.ofSeconds(10));
      assertThat(IpmiReplies.powerOn(status.data())).isTrue();
    }
  }

  @Test
  void aReplayedAnswerIsNotTakenForTheNextOne() throws Exception {
    // the answer to the second status read is replaced, once, by the first one, replayed
    try (UdpProxy proxy =
            new UdpProxy(
                bmc.address(),
                (n, d, previous) -> n == 7 ? new byte[][] {previous} : new byte[][] {d});
        RmcpClient client = client()) {
      bmc.setPoweredOn(false);
      Login login = admin(proxy.address());
      assertThat(
              IpmiReplies.powerOn(
                  client.call(login, IpmiCommand.chassisStatus(), Duration.ofSeconds(10)).data()))
          .isFalse();
      bmc.setPoweredOn(true);
      assertThat(
              IpmiReplies.powerOn(
                  client.call(login, IpmiCommand.chassisStatus(), Duration.ofSeconds(10)).data()))
          .as("the replayed 'off' is dropped; the retransmission's answer says on")
          .isTrue();
      assertThat(proxy.answers()).isGreaterThanOrEqualTo(8);
    }
  }

  @Test
  void aBmcThatNeverAnswersIsTransientAfterTheRetransmissions() throws Exception {
    int port;
    try (DatagramSocket socket =
        new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      port = socket.getLocalPort();
    }
    try (RmcpClient client = client()) {
      assertThatThrownBy(
              () ->
                  client.call(
                      admin(new InetSocketAddress(InetAddress.getLoopbackAddress(), port)),
                      IpmiCommand.chassisStatus(),
                      Duration.ofSeconds(10)))
          .isInstanceOf(TransientPowerException.class)
          .satisfies(
              e ->
                  assertThat(((PowerException) e).reason())
                      .isEqualTo(PowerException.Reason.UNREACHABLE))
          .hasMessageContaining("after 3 tries");
    }
  }

  @Test
  void theCallersDeadlineEndsTheWaitEvenWithRetriesLeft() throws Exception {
    bmc.freeze();
    try (RmcpClient client =
        new RmcpClient(new Retransmission(Duration.ofSeconds(5), 4), Duration.ofSeconds(20))) {
      assertThatThrownBy(
              () ->
                  client.call(
                      admin(bmc.address()), IpmiCommand.chassisStatus(), Duration.ofMillis(700)))
          .isInstanceOf(TransientPowerException.class)
          .satisfies(
              e ->
                  assertThat(((PowerException) e).reason())
                      .isEqualTo(PowerException.Reason.TIMEOUT));
    } finally {
      bmc.thaw();
    }
  }
}
