package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.api.http.ApiTlsContext;
import io.bamel.inventory.testing.EtcdExtension;
import io.bamel.inventory.testing.TestPki;
import io.bamel.inventory.testing.TlsClients;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API over TLS with PEM files: an HTTPS client trusting the CA gets in, plain HTTP on the same
 * port does not; with a client CA only clients presenting a certificate it signed get in; replaced
 * files are served without a restart, and broken replacements leave the last good certificate.
 */
class ApiTlsIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  @TempDir Path dir;

  private static HttpClient client(SSLContext context) {
    return HttpClient.newBuilder()
        .sslContext(context)
        .connectTimeout(Duration.ofSeconds(5))
        .build();
  }

  /** The subject of the certificate the server presents to a new connection. */
  private static String servedSubject(int port, X509Certificate ca) throws Exception {
    SSLContext context = TlsClients.context(ca, null);
    try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
      socket.setSoTimeout(5000);
      socket.startHandshake();
      return ((X509Certificate) socket.getSession().getPeerCertificates()[0])
          .getSubjectX500Principal()
          .getName();
    }
  }

  @Test
  void servesHttpsWithThePemCertificateAndPlainHttpFails() throws Exception {
    ApiTlsFiles.Served pki = ApiTlsFiles.bamelApi(dir);
    try (ApiFixture f = ApiFixture.start(ETCD.cluster(), ApiOptions.DEFAULTS.tls(pki.tls()))) {
      assertThat(f.base).startsWith("https://127.0.0.1:");
      HttpClient https = client(pki.trusting());
      assertThat(TlsClients.get(https, f.base + "/healthz", null).statusCode()).isEqualTo(200);
      HttpResponse<String> nodes = TlsClients.get(https, f.base + "/api/v1/nodes", ApiFixture.READ);
      assertThat(nodes.statusCode()).isEqualTo(200);
      assertThat(nodes.body()).contains("\"items\"");
      HttpResponse<String> write =
          https.send(
              HttpRequest.newBuilder(URI.create(f.base + "/api/v1/nodes/n001"))
                  .header("Authorization", "Bearer " + ApiFixture.ADMIN)
                  .header("Content-Type", "application/json")
                  .PUT(HttpRequest.BodyPublishers.ofString(Json.of(Json.spec(1, "a"))))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(write.statusCode()).as(write.body()).isEqualTo(201);
      assertThat(servedSubject(f.api.port(), pki.ca().cert())).isEqualTo("CN=bamel-api");

      // Plain HTTP on the TLS port: no HTTP answer, whatever the client.
      String plain = "http://127.0.0.1:" + f.api.port() + "/healthz";
      assertThatThrownBy(() -> TlsClients.get(HttpClient.newHttpClient(), plain, null))
          .isInstanceOf(IOException.class);
      assertThat(TlsClients.plainHttpAnswer(f.api.port(), "/healthz"))
          .doesNotContain("HTTP/1.1 200")
          .doesNotContain("\"status\"");
      // A client that does not trust the CA cannot connect.
      assertThatThrownBy(
              () -> TlsClients.get(HttpClient.newHttpClient(), f.base + "/healthz", null))
          .isInstanceOf(IOException.class);
    }
  }

  @Test
  void takesAPkcs1RsaKey() throws Exception {
    TestPki.Issued ca = TestPki.ca("test-ca");
    TestPki.Issued server = TestPki.server(ca, "rsa-api", "RSA");
    ApiTls tls = ApiTlsFiles.write(dir, server, ca, false, null);
    assertThat(Files.readString(tls.keyFile())).startsWith("-----BEGIN RSA PRIVATE KEY-----");
    try (ApiFixture f = ApiFixture.start(ETCD.cluster(), ApiOptions.DEFAULTS.tls(tls))) {
      HttpClient https = client(TlsClients.context(ca.cert(), null));
      assertThat(TlsClients.get(https, f.base + "/healthz", null).statusCode()).isEqualTo(200);
      assertThat(servedSubject(f.api.port(), ca.cert())).isEqualTo("CN=rsa-api");
    }
  }

  @Test
  void withAClientCaOnlyClientsWithACertificateItSignedGetIn() throws Exception {
    TestPki.Issued ca = TestPki.ca("test-ca");
    TestPki.Issued server = TestPki.server(ca, "bamel-api", "EC");
    TestPki.Issued clientCa = TestPki.ca("client-ca");
    TestPki.Issued otherCa = TestPki.ca("other-ca");
    Path clientCaFile = dir.resolve("client-ca.crt");
    Files.writeString(clientCaFile, TestPki.pem(clientCa.cert()));
    ApiTls tls = ApiTlsFiles.write(dir, server, ca, true, clientCaFile);
    try (ApiFixture f = ApiFixture.start(ETCD.cluster(), ApiOptions.DEFAULTS.tls(tls))) {
      String url = f.base + "/api/v1/nodes";
      HttpClient withCert =
          client(TlsClients.context(ca.cert(), TestPki.client(clientCa, "dcim-job")));
      HttpResponse<String> ok = TlsClients.get(withCert, url, ApiFixture.READ);
      assertThat(ok.statusCode()).isEqualTo(200);
      // The certificate lets the client in; the token still decides what it may do.
      assertThat(TlsClients.get(withCert, url, null).statusCode()).isEqualTo(401);

      HttpClient without = client(TlsClients.context(ca.cert(), null));
      assertThatThrownBy(() -> TlsClients.get(without, url, ApiFixture.READ))
          .isInstanceOf(IOException.class);
      HttpClient wrongCa =
          client(TlsClients.context(ca.cert(), TestPki.client(otherCa, "intruder")));
      assertThatThrownBy(() -> TlsClients.get(wrongCa, url, ApiFixture.READ))
          .isInstanceOf(IOException.class);
    }
  }

  @Test
  void replacedFilesAreServedWithoutARestartAndBrokenOnesAreNot() throws Exception {
    TestPki.Issued ca = TestPki.ca("test-ca");
    ApiTls tls = ApiTlsFiles.write(dir, TestPki.server(ca, "first", "EC"), ca, true, null);
    ApiOptions options = ApiOptions.DEFAULTS.tls(tls).tlsReloadInterval(Duration.ofMillis(100));
    try (ApiFixture f = ApiFixture.start(ETCD.cluster(), options)) {
      int port = f.api.port();
      assertThat(servedSubject(port, ca.cert())).isEqualTo("CN=first");

      ApiTlsFiles.write(dir, TestPki.server(ca, "second", "EC"), ca, true, null);
      await()
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> servedSubject(port, ca.cert()).equals("CN=second"));

      // A certificate without its key yet (the key file still holds the second's key), then
      // garbage: the second certificate stays.
      TestPki.Issued third = TestPki.server(ca, "third", "EC");
      Files.writeString(tls.certFile(), TestPki.pem(third.cert(), ca.cert()));
      Thread.sleep(500);
      assertThat(servedSubject(port, ca.cert())).isEqualTo("CN=second");
      Files.writeString(tls.certFile(), "not a certificate\n");
      Thread.sleep(500);
      assertThat(servedSubject(port, ca.cert())).isEqualTo("CN=second");
      HttpClient https = client(TlsClients.context(ca.cert(), null));
      assertThat(TlsClients.get(https, f.base + "/healthz", null).statusCode()).isEqualTo(200);

      // The third's key arrives with its certificate: it is served.
      ApiTlsFiles.write(dir, third, ca, true, null);
      await()
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> servedSubject(port, ca.cert()).equals("CN=third"));
    }
  }

  @Test
  void unusableFilesAreRefusedAtStartNamingTheFile() throws Exception {
    TestPki.Issued ca = TestPki.ca("test-ca");
    ApiTls tls = ApiTlsFiles.write(dir, TestPki.server(ca, "a", "EC"), ca, true, null);
    Files.writeString(tls.keyFile(), TestPki.keyPem(TestPki.keys("EC"), true));
    Duration second = Duration.ofSeconds(1);
    assertThatThrownBy(() -> new ApiTlsContext(tls, second))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(tls.keyFile().toString())
        .hasMessageContaining("is not the private key");
    ApiTls missing = new ApiTls(dir.resolve("nope.crt"), tls.keyFile(), null);
    assertThatThrownBy(() -> new ApiTlsContext(missing, second))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nope.crt: no such file");
    Path encrypted = dir.resolve("encrypted.key");
    Files.writeString(
        encrypted,
        "-----BEGIN ENCRYPTED PRIVATE KEY-----\n"
            + java.util.Base64.getMimeEncoder()
                .encodeToString(
                    new org.bouncycastle.asn1.pkcs.EncryptedPrivateKeyInfo(
                            new org.bouncycastle.asn1.x509.AlgorithmIdentifier(
                                org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers.id_PBES2),
                            new byte[48])
                        .getEncoded())
            + "\n-----END ENCRYPTED PRIVATE KEY-----\n");
    assertThatThrownBy(() -> new ApiTlsContext(new ApiTls(tls.certFile(), encrypted, null), second))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("encrypted");
  }
}
