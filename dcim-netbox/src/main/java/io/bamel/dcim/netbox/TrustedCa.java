package io.bamel.dcim.netbox;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The TLS context that trusts exactly the CA certificates of one PEM file ({@code netbox.caFile}),
 * for a NetBox whose certificate the system's trust store does not know.
 */
final class TrustedCa {

  private TrustedCa() {}

  /**
   * An SSL context trusting the certificates in {@code file}.
   *
   * @throws IllegalArgumentException naming the file when it holds no usable certificate
   */
  static SSLContext context(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      Collection<? extends Certificate> certs =
          CertificateFactory.getInstance("X.509").generateCertificates(in);
      if (certs.isEmpty()) {
        throw new IllegalArgumentException(file + ": no PEM certificate found");
      }
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int i = 0;
      for (Certificate c : certs) {
        store.setCertificateEntry("ca-" + i++, c);
      }
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(store);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(null, tmf.getTrustManagers(), null);
      return ctx;
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the CA file " + file, e);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(file + ": not a PEM CA certificate bundle", e);
    }
  }
}
