package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.api.http.HeaderDeadline;
import io.bamel.inventory.testing.EtcdExtension;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.eclipse.jetty.server.ConnectionLimit;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The connector's defences against slow and numerous clients, each shown with a raw socket: a
 * client dribbling header lines is disconnected at the header deadline, a body dribbled below the
 * minimum rate is 408, connections beyond the limit wait until one closes, and the accept queue is
 * 1,024.
 */
class ConnectorLimitsIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** Whether the server closed the socket: -1 or a reset on read; false on a read timeout. */
  private static boolean closed(Socket socket) {
    try {
      InputStream in = socket.getInputStream();
      int b = in.read();
      return b == -1;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  @Test
  void aClientDribblingHeaderLinesIsDisconnectedAtTheHeaderDeadline() throws Exception {
    // The idle timeout (30 s) would never fire: a line arrives every 400 ms.
    ApiOptions options =
        ApiOptions.DEFAULTS.connectionTimeouts(Duration.ofSeconds(30), Duration.ofMillis(1500));
    try (ApiFixture f = ApiFixture.start(ETCD.cluster(), options);
        Socket socket = new Socket("127.0.0.1", f.api.port())) {
      socket.setSoTimeout(400);
      OutputStream out = socket.getOutputStream();
      long start = System.nanoTime();
      out.write(ascii("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"));
      boolean closed = false;
      int lines = 0;
      while (!closed && System.nanoTime() - start < Duration.ofSeconds(15).toNanos()) {
        try {
          out.write(ascii("X-Slow-" + lines++ + ": still sending\r\n"));
          out.flush();
        } catch (IOException e) {
          closed = true;
          break;
        }
        closed = closed(socket);
      }
      Duration held = Duration.ofNanos(System.nanoTime() - start);
      assertThat(closed).as("closed after %s and %d header lines", held, lines).isTrue();
      assertThat(held).isBetween(Duration.ofMillis(1400), Duration.ofSeconds(6));

      // A client that sends its request at once is served as before.
      ApiFixture.Response healthz = f.send("GET", "/healthz", null, null, null, java.util.Map.of());
      assertThat(healthz.status()).isEqualTo(200);
    }
  }

  @Test
  void aBodyDribbledBelowTheMinimumDataRateIs408AndWritesNothing() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster());
        Socket socket = new Socket("127.0.0.1", f.api.port())) {
      long before = f.revision();
      socket.setSoTimeout(200);
      OutputStream out = socket.getOutputStream();
      out.write(
          ascii(
              "PUT /api/v1/nodes/n001 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                  + ApiFixture.ADMIN
                  + "\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{"));
      StringBuilder answer = new StringBuilder();
      long start = System.nanoTime();
      byte[] buffer = new byte[4096];
      while (answer.indexOf("\r\n\r\n") < 0
          && System.nanoTime() - start < Duration.ofSeconds(20).toNanos()) {
        try {
          out.write(' ');
          out.flush();
        } catch (IOException e) {
          // The server answered and closed; read what it sent.
        }
        try {
          int n = socket.getInputStream().read(buffer);
          if (n < 0) {
            break;
          }
          answer.append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
        } catch (SocketTimeoutException e) {
          // Still reading the body: dribble on (5 bytes a second, under 1 KiB/s).
        }
      }
      assertThat(answer.toString()).startsWith("HTTP/1.1 408");
      assertThat(answer.toString()).containsIgnoringCase("application/problem+json");
      assertThat(f.revision()).isEqualTo(before);
    }
  }

  @Test
  void connectionsBeyondTheLimitWaitUntilOneCloses() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster(), ApiOptions.DEFAULTS.maxConnections(2))) {
      int port = f.api.port();
      Socket first = new Socket("127.0.0.1", port);
      Socket second = new Socket("127.0.0.1", port);
      try (Socket third = new Socket("127.0.0.1", port)) {
        for (Socket s : new Socket[] {first, second}) {
          s.setSoTimeout(5000);
          s.getOutputStream().write(ascii("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
          assertThat(new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII))
              .isEqualTo("HTTP/1.1 200");
        }
        third.setSoTimeout(1500);
        third
            .getOutputStream()
            .write(ascii("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"));
        // The kernel accepted it into the backlog; the server does not take it while at its limit.
        assertThat(closed(third)).isFalse();
        first.close();
        third.setSoTimeout(10_000);
        assertThat(new String(third.getInputStream().readNBytes(12), StandardCharsets.US_ASCII))
            .isEqualTo("HTTP/1.1 200");
      } finally {
        first.close();
        second.close();
      }
    }
  }

  @Test
  void theConnectorHasTheConfiguredLimits() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      Server server = f.api.app().jettyServer().server();
      ServerConnector connector = (ServerConnector) server.getConnectors()[0];
      assertThat(connector.getAcceptQueueSize()).isEqualTo(1024);
      assertThat(connector.getIdleTimeout()).isEqualTo(30_000);
      assertThat(connector.getHost()).isEqualTo("127.0.0.1");
      assertThat(server.getBeans(ConnectionLimit.class))
          .singleElement()
          .satisfies(l -> assertThat(l.getMaxConnections()).isEqualTo(10_000));
      assertThat(
              connector
                  .getConnectionFactory(HttpConnectionFactory.class)
                  .getHttpConfiguration()
                  .getMinRequestDataRate())
          .isEqualTo(1024);
      assertThat(connector.getBeans(HeaderDeadline.class)).hasSize(1);
    }
  }
}
