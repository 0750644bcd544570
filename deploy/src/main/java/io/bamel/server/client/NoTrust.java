package io.bamel.server.client;

import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * A TLS context that trusts no certificate, for a client of a plain {@code http://} server: it is
 * never used (redirects are not followed), and building it is cheaper than the JDK's default
 * context, which reads the whole system trust store. Any handshake through it fails.
 */
final class NoTrust implements X509TrustManager {

  private NoTrust() {}

  /** A context whose every handshake fails. */
  static SSLContext context() {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {new NoTrust()}, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new ClientException("no TLS implementation: " + e.getMessage());
    }
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    throw new CertificateException("no certificate is trusted on a plain HTTP connection");
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    throw new CertificateException("no certificate is trusted on a plain HTTP connection");
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[0];
  }
}
