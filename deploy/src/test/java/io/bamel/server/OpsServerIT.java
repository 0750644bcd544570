package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.api.ApiOptions;
import io.bamel.inventory.api.security.TokenStore;
import io.bamel.inventory.metrics.MetricsEndpoint;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.testing.EtcdExtension;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The health and metrics endpoints of a process without the API against slow clients (finding 3 of
 * issue 30): a client that sends part of a request and never finishes it holds nobody else up, and
 * is disconnected at the request-header deadline, as on the API's port.
 */
class OpsServerIT {

  @RegisterExtension static final EtcdExtension ETCD = EtcdExtension.singleNode();

  private InventoryCache cache;

  @BeforeEach
  void startCache() throws Exception {
    cache = new InventoryCache(ETCD.cluster().client()).start();
    assertThat(cache.awaitSynced(Duration.ofSeconds(20))).isTrue();
  }

  @AfterEach
  void stopCache() {
    cache.close();
  }

  private OpsServer start(ApiOptions.Connections connections) {
    return new OpsServer(
        "127.0.0.1",
        0,
        connections,
        cache,
        new MetricsEndpoint(new PrometheusRegistry()),
        TokenStore.empty(),
        false);
  }

  private static HttpResponse<String> get(int port, String path) throws Exception {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    return client.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void attack_slowHeaderBlocksOpsServer() throws Exception {
    try (OpsServer ops = start(ApiOptions.DEFAULTS.connections());
        Socket slow = new Socket("127.0.0.1", ops.port())) {
      // Part of a request line, then nothing: the client neither finishes nor leaves.
      OutputStream out = slow.getOutputStream();
      out.write("GET /heal".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      Thread.sleep(200);
      for (String path : new String[] {"/healthz", "/readyz", "/metrics"}) {
        HttpResponse<String> answer = get(ops.port(), path);
        assertThat(answer.statusCode()).as(path).isEqualTo(path.equals("/metrics") ? 401 : 200);
      }
    }
  }

  @Test
  void aClientThatNeverFinishesItsHeadersIsDisconnectedAtTheHeaderDeadline() throws Exception {
    ApiOptions.Connections connections =
        ApiOptions.DEFAULTS
            .connectionTimeouts(Duration.ofSeconds(30), Duration.ofMillis(1500))
            .connections();
    try (OpsServer ops = start(connections);
        Socket slow = new Socket("127.0.0.1", ops.port())) {
      slow.setSoTimeout(500);
      OutputStream out = slow.getOutputStream();
      out.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
      boolean closed = false;
      long start = System.nanoTime();
      for (int line = 0;
          !closed && System.nanoTime() - start < Duration.ofSeconds(20).toNanos();
          line++) {
        try {
          out.write(("X-Slow-" + line + ": still sending\r\n").getBytes(StandardCharsets.US_ASCII));
          out.flush();
          closed = closed(slow.getInputStream());
        } catch (IOException e) {
          closed = true;
        }
      }
      assertThat(closed).as("disconnected at the header deadline").isTrue();
      assertThat(get(ops.port(), "/healthz").statusCode()).isEqualTo(200);
    }
  }

  /** Whether the server closed the socket: -1 or a reset on read; false on a read timeout. */
  private static boolean closed(InputStream in) {
    try {
      return in.read() == -1;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true;
    }
  }
}
