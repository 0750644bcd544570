package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.api.security.TokenStore;
import io.bamel.inventory.embedded.EtcdProcess;
import io.bamel.inventory.testing.TestPki;
import io.bamel.inventory.testing.TlsClients;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A controller-only {@code bamel server} ({@code --components node-controller,pool-controller}, no
 * API) serves its health and metrics endpoints with {@code http.tls} as the API does: plain HTTP on
 * its port gets no answer, a client without a certificate the client CA signed cannot connect, and
 * one with such a certificate gets {@code /healthz} and, with a read token, {@code /metrics}.
 * Finding 2 of issue 30: this port used to answer plain HTTP whatever {@code http.tls} said.
 */
class OpsServerTlsIT {

  private static final String READER = "ops-tls-it-read-token-0123456789";

  @Test
  void attack_plainHttpOrNoClientCertificateOnControllerOnlyServer(@TempDir Path dir)
      throws Exception {
    Path tokens =
        Files.writeString(dir.resolve("tokens"), TokenStore.line("prom", "read", READER) + "\n");
    TestPki.PemFiles pki = TestPki.generate(Files.createDirectory(dir.resolve("pki")));
    int port = EtcdProcess.freePort();
    ReservedEtcdPorts.reserve(dir.resolve("var/etcd"));
    Map<String, String> env =
        Map.of(
            "BAMEL_ETCD_DATA_DIR", dir.resolve("var/etcd").toString(),
            "BAMEL_COMPONENTS", "node-controller,pool-controller",
            "BAMEL_KUBERNETES_MODE", "none",
            "BAMEL_HTTP_PORT", String.valueOf(port),
            "BAMEL_HTTP_TLS_CERT_FILE", pki.serverCert().toString(),
            "BAMEL_HTTP_TLS_KEY_FILE", pki.serverKey().toString(),
            "BAMEL_HTTP_TLS_CLIENT_CA_FILE", pki.caCert().toString(),
            "BAMEL_AUTH_TOKENS_FILE", tokens.toString());
    try (BamelProcess bamel = BamelProcess.start(env, "server")) {
      HttpClient withCert =
          HttpClient.newBuilder()
              .sslContext(TlsClients.context(pki.ca().cert(), pki.client()))
              .connectTimeout(Duration.ofSeconds(5))
              .build();
      String base = "https://127.0.0.1:" + port;
      bamel.await(l -> l.contains("bamel server is running"), Duration.ofSeconds(180), "start-up");
      assertThat(TlsClients.get(withCert, base + "/healthz", null).statusCode()).isEqualTo(200);
      assertThat(TlsClients.get(withCert, base + "/metrics", null).statusCode()).isEqualTo(401);
      HttpResponse<String> metrics = TlsClients.get(withCert, base + "/metrics", READER);
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.body()).contains("bamel_");

      // Plain HTTP on that port: no HTTP answer, neither through a client nor by hand.
      HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      assertThatThrownBy(
              () -> TlsClients.get(plain, "http://127.0.0.1:" + port + "/metrics", READER))
          .isInstanceOf(IOException.class);
      assertThat(TlsClients.plainHttpAnswer(port, "/healthz"))
          .doesNotContain("HTTP/1.1 200")
          .doesNotContain("ok");
      // TLS trusting the server but without a client certificate: refused in the handshake.
      HttpClient noCert =
          HttpClient.newBuilder()
              .sslContext(TlsClients.context(pki.ca().cert(), null))
              .connectTimeout(Duration.ofSeconds(5))
              .build();
      assertThatThrownBy(() -> TlsClients.get(noCert, base + "/healthz", null))
          .isInstanceOf(IOException.class);
      assertThat(bamel.terminate(Duration.ofSeconds(60))).isZero();
    }
  }
}
