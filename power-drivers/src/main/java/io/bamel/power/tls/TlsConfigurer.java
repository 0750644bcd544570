package io.bamel.power.tls;

import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.TlsSettings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import okhttp3.ConnectionSpec;
import okhttp3.OkHttpClient;

/**
 * Applies {@link TlsSettings} to an OkHttp client: the JVM's trust store by default, a PEM CA
 * bundle, a pinned certificate fingerprint, or (only when explicitly asked) no verification. A
 * driver's base client is {@link #cleartext} (OkHttp then sets up no TLS at all: building a client
 * that may speak TLS parses the JVM's trust store, some 150 certificates, which a {@code bamel bmc}
 * command would otherwise pay at every start even for an {@code http://} address or a CA file);
 * {@link #apply} turns TLS on again, with the JVM's trust store only when no other is given.
 */
public final class TlsConfigurer {

  private TlsConfigurer() {}

  /** OkHttp's default connection specs: modern TLS, and plain HTTP for {@code http://}. */
  private static final List<ConnectionSpec> TLS_AND_CLEARTEXT =
      List.of(ConnectionSpec.MODERN_TLS, ConnectionSpec.CLEARTEXT);

  /** Plain HTTP only: a client built from {@code builder} sets up no TLS; returns it. */
  public static OkHttpClient.Builder cleartext(OkHttpClient.Builder builder) {
    return builder.connectionSpecs(List.of(ConnectionSpec.CLEARTEXT));
  }

  /**
   * Configures {@code builder} for {@code settings}, TLS (OkHttp's default connection specs) with
   * the trust they name; returns it.
   */
  public static OkHttpClient.Builder apply(OkHttpClient.Builder builder, TlsSettings settings)
      throws TerminalPowerException {
    builder.connectionSpecs(TLS_AND_CLEARTEXT);
    try {
      X509TrustManager trust;
      if (settings.insecure()) {
        trust = new AcceptAllTrustManager();
        builder.hostnameVerifier((host, session) -> true);
      } else if (settings.pinnedSha256() != null) {
        trust = new PinnedTrustManager(normalizeFingerprint(settings.pinnedSha256()));
        // The pin names the certificate itself; the host name adds nothing.
        builder.hostnameVerifier((host, session) -> true);
      } else if (settings.caFile() != null) {
        trust = trustManagerFor(loadCertificates(settings));
      } else {
        return builder;
      }
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {trust}, new SecureRandom());
      return builder.sslSocketFactory(context.getSocketFactory(), trust);
    } catch (GeneralSecurityException | IOException e) {
      throw new TerminalPowerException(
          PowerException.Reason.TLS, "cannot set up TLS: " + e.getMessage(), e);
    }
  }

  /** Lowercase hex without separators. */
  static String normalizeFingerprint(String fingerprint) {
    return fingerprint.replace(":", "").replace(" ", "").toLowerCase(Locale.ROOT);
  }

  /** The SHA-256 fingerprint of a certificate, lowercase hex without separators. */
  public static String sha256(X509Certificate certificate) throws CertificateException {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded()));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new CertificateException(e);
    }
  }

  private static java.util.Collection<? extends Certificate> loadCertificates(TlsSettings settings)
      throws IOException, GeneralSecurityException {
    try (InputStream in = Files.newInputStream(settings.caFile())) {
      var certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
      if (certificates.isEmpty()) {
        throw new CertificateException("no certificate in " + settings.caFile());
      }
      return certificates;
    }
  }

  private static X509TrustManager trustManagerFor(
      java.util.Collection<? extends Certificate> certificates) throws GeneralSecurityException {
    try {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int i = 0;
      for (Certificate certificate : certificates) {
        store.setCertificateEntry("ca-" + i++, certificate);
      }
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      for (TrustManager manager : factory.getTrustManagers()) {
        if (manager instanceof X509TrustManager x509) {
          return x509;
        }
      }
      throw new GeneralSecurityException("no X509TrustManager");
    } catch (IOException e) {
      throw new GeneralSecurityException(e);
    }
  }

  /** Trusts every certificate: the explicit {@code insecure} opt-in only. */
  private static final class AcceptAllTrustManager implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }

  /** Trusts exactly the leaf certificate with one SHA-256 fingerprint. */
  private static final class PinnedTrustManager implements X509TrustManager {
    private final String fingerprint;

    PinnedTrustManager(String fingerprint) {
      this.fingerprint = fingerprint;
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      throw new CertificateException("client certificates are not checked here");
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      if (chain == null || chain.length == 0 || !fingerprint.equals(sha256(chain[0]))) {
        throw new CertificateException("server certificate does not match the pinned fingerprint");
      }
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
