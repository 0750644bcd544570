package io.bamel.inventory.api;

import io.bamel.inventory.testing.TestPki;
import io.bamel.inventory.testing.TlsClients;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.net.ssl.SSLContext;

/**
 * The API's TLS files in a test: a server certificate from {@link TestPki} written as the PEM files
 * {@link ApiTls} names ({@code tls.crt}, the server's certificate then its CA's; {@code tls.key}).
 */
final class ApiTlsFiles {

  /** A CA, and the API's TLS files for a server certificate it signed. */
  record Served(TestPki.Issued ca, ApiTls tls) {

    /** A client context that trusts the CA and presents no certificate. */
    SSLContext trusting() throws Exception {
      return TlsClients.context(ca.cert(), null);
    }
  }

  private ApiTlsFiles() {}

  /** A new CA and its EC certificate {@code CN=bamel-api}, written into {@code dir}. */
  static Served bamelApi(Path dir) throws Exception {
    TestPki.Issued ca = TestPki.ca("test-ca");
    return new Served(ca, write(dir, TestPki.server(ca, "bamel-api", "EC"), ca, true, null));
  }

  /**
   * Writes {@code server}'s chain (with {@code ca}) and key, PKCS#8 or PKCS#1, into {@code dir};
   * {@code clientCa} (may be null) is the client-CA file the API will demand certificates of.
   */
  static ApiTls write(
      Path dir, TestPki.Issued server, TestPki.Issued ca, boolean pkcs8, Path clientCa)
      throws IOException {
    Path cert = dir.resolve("tls.crt");
    Path key = dir.resolve("tls.key");
    Files.writeString(cert, TestPki.pem(server.cert(), ca.cert()));
    Files.writeString(key, server.keyPem(pkcs8));
    return new ApiTls(cert, key, clientCa);
  }
}
