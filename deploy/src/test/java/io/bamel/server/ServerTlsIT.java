package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.embedded.EtcdProcess;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code http.tls.*} reach the API of a real {@code bamel server}: HTTPS with the configured
 * certificate answers, plain HTTP on the same port does not, and the start-up banner says https.
 */
class ServerTlsIT {

  @Test
  void theApiServesTheConfiguredCertificateAndNoPlainHttp(@TempDir Path dir) throws Exception {
    // A CA and a certificate for 127.0.0.1, made the way the embedded etcd makes its own.
    EtcdCertificates.TlsFiles certs =
        EtcdCertificates.ensure(dir.resolve("api-tls"), Instant.now());
    int port = EtcdProcess.freePort();
    ReservedEtcdPorts.reserve(dir.resolve("var/etcd"));
    Map<String, String> env =
        Map.of(
            "BAMEL_ETCD_DATA_DIR", dir.resolve("var/etcd").toString(),
            "BAMEL_HTTP_PORT", String.valueOf(port),
            "BAMEL_HTTP_TLS_CERT_FILE", certs.serverCert().toString(),
            "BAMEL_HTTP_TLS_KEY_FILE", certs.serverKey().toString(),
            "BAMEL_COMPONENTS", "api",
            "BAMEL_KUBERNETES_MODE", "none");
    try (BamelProcess bamel = BamelProcess.start(env, "server")) {
      HttpClient https = HttpClient.newBuilder().sslContext(trusting(certs.caCert())).build();
      HttpResponse<String> ready = awaitHealthy(https, "https://127.0.0.1:" + port + "/healthz");
      assertThat(ready.statusCode()).isEqualTo(200);
      bamel.await(
          l -> l.contains("API:     https://localhost:" + port), Duration.ofSeconds(30), "banner");

      HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      assertThatThrownBy(
              () ->
                  plain.send(
                      HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz"))
                          .timeout(Duration.ofSeconds(10))
                          .build(),
                      HttpResponse.BodyHandlers.ofString()))
          .isInstanceOf(java.io.IOException.class);
      assertThat(bamel.terminate(Duration.ofSeconds(60))).isZero();
    }
  }

  private static HttpResponse<String> awaitHealthy(HttpClient client, String url) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    Exception last = null;
    while (System.nanoTime() < deadline) {
      try {
        return client.send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
      } catch (java.io.IOException e) {
        last = e;
        Thread.sleep(300);
      }
    }
    throw new AssertionError("no HTTPS answer from " + url, last);
  }

  private static SSLContext trusting(Path caPem) throws Exception {
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    try (InputStream in = Files.newInputStream(caPem)) {
      trust.setCertificateEntry(
          "ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, tmf.getTrustManagers(), null);
    return context;
  }
}
