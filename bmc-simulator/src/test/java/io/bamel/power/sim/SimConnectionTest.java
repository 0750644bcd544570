package io.bamel.power.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The simulator's connection behaviours, seen from a raw socket. */
class SimConnectionTest {

  static SimulatedBmcFleet fleet;

  @BeforeAll
  static void start() {
    fleet = SimulatedBmcFleet.start(false);
  }

  @AfterAll
  static void stop() {
    fleet.close();
  }

  /** Sends a GET of the service root and reads the status line and headers. */
  private static List<String> get(Socket socket, String id) throws Exception {
    OutputStream out = socket.getOutputStream();
    out.write(
        ("GET /bmc/" + id + "/redfish/v1 HTTP/1.1\r\nHost: x\r\nOData-Version: 4.0\r\n\r\n")
            .getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
    List<String> head = new ArrayList<>();
    int length = 0;
    for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
      head.add(line);
      if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(line.substring(15).trim());
      }
    }
    char[] body = new char[length];
    int read = 0;
    while (read < length) {
      int n = in.read(body, read, length - read);
      if (n < 0) {
        break;
      }
      read += n;
    }
    return head;
  }

  private static boolean closedByPeer(Socket socket) throws Exception {
    socket.setSoTimeout(2000);
    return socket.getInputStream().read() < 0;
  }

  @Test
  void keepAliveConnectionsAreClosedSilentlyWhenIdle() throws Exception {
    fleet.add(
        "idle",
        SimSystemConfig.defaults().withConnection(SimConnection.keepAlive(Duration.ofMillis(150))));
    try (Socket socket = new Socket("127.0.0.1", fleet.port())) {
      List<String> head = get(socket, "idle");
      assertThat(head.get(0)).isEqualTo("HTTP/1.1 200 OK");
      assertThat(head)
          .noneMatch(h -> h.toLowerCase(java.util.Locale.ROOT).startsWith("connection:"));
      assertThat(get(socket, "idle").get(0)).as("reused at once").isEqualTo("HTTP/1.1 200 OK");
      Thread.sleep(400);
      assertThat(closedByPeer(socket)).isTrue();
    }
  }

  @Test
  void anAnnouncedIdleTimeoutIsSentInWholeSecondsOnKeptConnections() throws Exception {
    fleet.add(
        "announcing",
        SimSystemConfig.defaults()
            .withConnection(
                SimConnection.keepAlive(Duration.ofMillis(2500)).withIdleTimeoutAnnounced()));
    try (Socket socket = new Socket("127.0.0.1", fleet.port())) {
      assertThat(get(socket, "announcing")).contains("Keep-Alive: timeout=2");
    }
    assertThatThrownBy(
            () -> SimConnection.keepAlive(Duration.ofMillis(200)).withIdleTimeoutAnnounced())
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void http10AnswersAndClosesWithoutSayingSo() throws Exception {
    fleet.add("old", SimSystemConfig.defaults().withConnection(SimConnection.http10()));
    try (Socket socket = new Socket("127.0.0.1", fleet.port())) {
      List<String> head = get(socket, "old");
      assertThat(head.get(0)).isEqualTo("HTTP/1.0 200 OK");
      assertThat(head)
          .noneMatch(h -> h.toLowerCase(java.util.Locale.ROOT).startsWith("connection:"));
      assertThat(closedByPeer(socket)).isTrue();
    }
  }

  @Test
  void closeAnnouncedSaysConnectionClose() throws Exception {
    fleet.add("closing", SimSystemConfig.defaults().withConnection(SimConnection.closeAnnounced()));
    try (Socket socket = new Socket("127.0.0.1", fleet.port())) {
      List<String> head = get(socket, "closing");
      assertThat(head).contains("Connection: close");
      assertThat(closedByPeer(socket)).isTrue();
    }
  }

  @Test
  void closesTheNextConnectionsBeforeReadingAnything() throws Exception {
    fleet.add("refusing", SimSystemConfig.defaults());
    long before = fleet.connectionsAccepted();
    fleet.closeNextConnections(1);
    try (Socket socket = new Socket("127.0.0.1", fleet.port())) {
      assertThat(closedByPeer(socket)).isTrue();
    }
    try (Socket socket = new Socket("127.0.0.1", fleet.port())) {
      assertThat(get(socket, "refusing").get(0)).isEqualTo("HTTP/1.1 200 OK");
    }
    assertThat(fleet.connectionsAccepted()).isEqualTo(before + 2);
  }

  @Test
  void parsesTheCommandLineForms() {
    assertThat(SimConnection.parse("keep-alive")).isEqualTo(SimConnection.DEFAULT);
    assertThat(SimConnection.parse("keep-alive:200").idleTimeout())
        .isEqualTo(Duration.ofMillis(200));
    assertThat(SimConnection.parse("HTTP10")).isEqualTo(SimConnection.http10());
    assertThat(SimConnection.parse("close")).isEqualTo(SimConnection.closeAnnounced());
    assertThatThrownBy(() -> SimConnection.parse("sometimes"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(SimProfile.named("XCC")).isSameAs(SimProfile.XCC);
    assertThatThrownBy(() -> SimProfile.named("ilo6")).hasMessageContaining("idrac9");
  }
}
