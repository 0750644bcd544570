package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.api.http.ApiTlsContext;
import io.bamel.inventory.testing.EtcdExtension;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
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

  private static HttpResponse<String> get(HttpClient client, String url, String token)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The subject of the certificate the server presents to a new connection. */
  private static String servedSubject(int port, X509Certificate ca) throws Exception {
    SSLContext context = TestCerts.context(ca, null);
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
    TestCerts.Issued ca = TestCerts.ca("test-ca");
    TestCerts.Issued server = TestCerts.server(ca, "bamel-api", "EC");
    ApiTls tls = TestCerts.write(dir, server, ca, true, null);
    try (ApiFixture f = ApiFixture.start(ETCD.cluster(), ApiOptions.DEFAULTS.tls(tls))) {
      assertThat(f.base).startsWith("https://127.0.0.1:");
      HttpClient https = client(TestCerts.context(ca.cert(), null));
      assertThat(get(https, f.base + "/healthz", null).statusCode()).isEqualTo(200);
      HttpResponse<String> nodes = get(https, f.base + "/api/v1/nodes", ApiFixture.READ);
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
      assertThat(servedSubject(f.api.port(), ca.cert())).isEqualTo("CN=bamel-api");

      // Plain HTTP on the TLS port: no HTTP answer, whatever the client.
      String plain = "http://127.0.0.1:" + f.api.port() + "/healthz";
      assertThatThrownBy(() -> get(HttpClient.newHttpClient(), plain, null))
          .isInstanceOf(IOException.class);
      try (Socket socket = new Socket("127.0.0.1", f.api.port())) {
        socket.setSoTimeout(5000);
        socket
            .getOutputStream()
            .write(
                "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
        String answer = new String(readSome(socket.getInputStream()), StandardCharsets.ISO_8859_1);
        assertThat(answer).doesNotContain("HTTP/1.1 200").doesNotContain("\"status\"");
      }
      // A client that does not trust the CA cannot connect.
      assertThatThrownBy(() -> get(HttpClient.newHttpClient(), f.base + "/healthz", null))
          .isInstanceOf(IOException.class);
    }
  }

  private static byte[] readSome(InputStream in) throws IOException {
    try {
      return in.readAllBytes();
    } catch (SocketTimeoutException | java.net.SocketException e) {
      return new byte[0];
    }
  }

  @Test
  void takesAPkcs1RsaKey() throws Exception {
    TestCerts.Issued ca = TestCerts.ca("test-ca");
    TestCerts.Issued server = TestCerts.server(ca, "rsa-api", "RSA");
    ApiTls tls = TestCerts.write(dir, server, ca, false, null);
    assertThat(Files.readString(tls.keyFile())).startsWith("-----BEGIN RSA PRIVATE KEY-----");
    try (ApiFixture f = ApiFixture.start(ETCD.cluster(), ApiOptions.DEFAULTS.tls(tls))) {
      HttpClient https = client(TestCerts.context(ca.cert(), null));
      assertThat(get(https, f.base + "/healthz", null).statusCode()).isEqualTo(200);
      assertThat(servedSubject(f.api.port(), ca.cert())).isEqualTo("CN=rsa-api");
    }
  }

  @Test
  void withAClientCaOnlyClientsWithACertificateItSignedGetIn() throws Exception {
    TestCerts.Issued ca = TestCerts.ca("test-ca");
    TestCerts.Issued server = TestCerts.server(ca, "bamel-api", "EC");
    TestCerts.Issued clientCa = TestCerts.ca("client-ca");
    TestCerts.Issued otherCa = TestCerts.ca("other-ca");
    Path clientCaFile = dir.resolve("client-ca.crt");
    Files.writeString(clientCaFile, TestCerts.pem(clientCa.cert()));
    ApiTls tls = TestCerts.write(dir, server, ca, true, clientCaFile);
    try (ApiFixture f = ApiFixture.start(ETCD.cluster(), ApiOptions.DEFAULTS.tls(tls))) {
      String url = f.base + "/api/v1/nodes";
      HttpClient withCert =
          client(TestCerts.context(ca.cert(), TestCerts.client(clientCa, "dcim-job")));
      HttpResponse<String> ok = get(withCert, url, ApiFixture.READ);
      assertThat(ok.statusCode()).isEqualTo(200);
      // The certificate lets the client in; the token still decides what it may do.
      assertThat(get(withCert, url, null).statusCode()).isEqualTo(401);

      HttpClient without = client(TestCerts.context(ca.cert(), null));
      assertThatThrownBy(() -> get(without, url, ApiFixture.READ)).isInstanceOf(IOException.class);
      HttpClient wrongCa =
          client(TestCerts.context(ca.cert(), TestCerts.client(otherCa, "intruder")));
      assertThatThrownBy(() -> get(wrongCa, url, ApiFixture.READ)).isInstanceOf(IOException.class);
    }
  }

  @Test
  void replacedFilesAreServedWithoutARestartAndBrokenOnesAreNot() throws Exception {
    TestCerts.Issued ca = TestCerts.ca("test-ca");
    ApiTls tls = TestCerts.write(dir, TestCerts.server(ca, "first", "EC"), ca, true, null);
    ApiOptions options = ApiOptions.DEFAULTS.tls(tls).tlsReloadInterval(Duration.ofMillis(100));
    try (ApiFixture f = ApiFixture.start(ETCD.cluster(), options)) {
      int port = f.api.port();
      assertThat(servedSubject(port, ca.cert())).isEqualTo("CN=first");

      TestCerts.write(dir, TestCerts.server(ca, "second", "EC"), ca, true, null);
      await()
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> servedSubject(port, ca.cert()).equals("CN=second"));

      // A certificate without its key yet (the key file still holds the second's key), then
      // garbage: the second certificate stays.
      TestCerts.Issued third = TestCerts.server(ca, "third", "EC");
      Files.writeString(tls.certFile(), TestCerts.pem(third.cert(), ca.cert()));
      Thread.sleep(500);
      assertThat(servedSubject(port, ca.cert())).isEqualTo("CN=second");
      Files.writeString(tls.certFile(), "not a certificate\n");
      Thread.sleep(500);
      assertThat(servedSubject(port, ca.cert())).isEqualTo("CN=second");
      HttpClient https = client(TestCerts.context(ca.cert(), null));
      assertThat(get(https, f.base + "/healthz", null).statusCode()).isEqualTo(200);

      // The third's key arrives with its certificate: it is served.
      TestCerts.write(dir, third, ca, true, null);
      await()
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> servedSubject(port, ca.cert()).equals("CN=third"));
    }
  }

  @Test
  void unusableFilesAreRefusedAtStartNamingTheFile() throws Exception {
    TestCerts.Issued ca = TestCerts.ca("test-ca");
    ApiTls tls = TestCerts.write(dir, TestCerts.server(ca, "a", "EC"), ca, true, null);
    Files.writeString(tls.keyFile(), TestCerts.keyPem(TestCerts.keys("EC"), true));
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
