package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.api.security.TokenStore;
import io.bamel.inventory.embedded.EtcdProcess;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
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
    TestCertificates pki = TestCertificates.generate(Files.createDirectory(dir.resolve("pki")));
    Path tokens =
        Files.writeString(dir.resolve("tokens"), TokenStore.line("prom", "read", READER) + "\n");
    int port = EtcdProcess.freePort();
    Map<String, String> env =
        Map.of(
            "BAMEL_ETCD_DATA_DIR", dir.resolve("var/etcd").toString(),
            "BAMEL_HTTP_PORT", String.valueOf(port),
            "BAMEL_HTTP_TLS_CERT_FILE", pki.serverCert.toString(),
            "BAMEL_HTTP_TLS_KEY_FILE", pki.serverKey.toString(),
            "BAMEL_HTTP_TLS_CLIENT_CA_FILE", pki.caCert.toString(),
            "BAMEL_AUTH_TOKENS_FILE", tokens.toString(),
            "BAMEL_COMPONENTS", "node-controller,pool-controller",
            "BAMEL_KUBERNETES_MODE", "none");
    try (BamelProcess bamel = BamelProcess.start(env, "server")) {
      HttpClient withCert =
          HttpClient.newBuilder()
              .sslContext(context(pki.caCert, pki.clientCert, pki.clientKey))
              .connectTimeout(Duration.ofSeconds(5))
              .build();
      String base = "https://127.0.0.1:" + port;
      bamel.await(l -> l.contains("bamel server is running"), Duration.ofSeconds(180), "start-up");
      assertThat(get(withCert, base + "/healthz", null).statusCode()).isEqualTo(200);
      assertThat(get(withCert, base + "/metrics", null).statusCode()).isEqualTo(401);
      HttpResponse<String> metrics = get(withCert, base + "/metrics", READER);
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.body()).contains("bamel_");

      // Plain HTTP on that port: no HTTP answer, neither through a client nor by hand.
      HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      assertThatThrownBy(() -> get(plain, "http://127.0.0.1:" + port + "/metrics", READER))
          .isInstanceOf(IOException.class);
      try (Socket socket = new Socket("127.0.0.1", port)) {
        socket.setSoTimeout(5000);
        socket
            .getOutputStream()
            .write(
                "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
        String answer = new String(readSome(socket.getInputStream()), StandardCharsets.ISO_8859_1);
        assertThat(answer).doesNotContain("HTTP/1.1 200").doesNotContain("ok");
      }
      // TLS trusting the server but without a client certificate: refused in the handshake.
      HttpClient noCert =
          HttpClient.newBuilder()
              .sslContext(context(pki.caCert, null, null))
              .connectTimeout(Duration.ofSeconds(5))
              .build();
      assertThatThrownBy(() -> get(noCert, base + "/healthz", null))
          .isInstanceOf(IOException.class);
      assertThat(bamel.terminate(Duration.ofSeconds(60))).isZero();
    }
  }

  private static byte[] readSome(InputStream in) throws IOException {
    try {
      return in.readAllBytes();
    } catch (IOException e) {
      return new byte[0];
    }
  }

  private static HttpResponse<String> get(HttpClient client, String url, String token)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Trusts {@code caPem}; presents the certificate and PKCS#8 EC key when given. */
  static SSLContext context(Path caPem, Path certPem, Path keyPem) throws Exception {
    CertificateFactory x509 = CertificateFactory.getInstance("X.509");
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    try (InputStream in = Files.newInputStream(caPem)) {
      trust.setCertificateEntry("ca", x509.generateCertificate(in));
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    KeyManagerFactory kmf = null;
    if (certPem != null) {
      String pem =
          Files.readString(keyPem).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
      PrivateKey key =
          KeyFactory.getInstance("EC")
              .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(pem)));
      Certificate cert;
      try (InputStream in = Files.newInputStream(certPem)) {
        cert = x509.generateCertificate(in);
      }
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry("client", key, new char[0], new Certificate[] {cert});
      kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, new char[0]);
    }
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    return context;
  }
}
