package io.bamel.inventory.api;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Test certificates made with BouncyCastle: a CA, and certificates it signs for a server (127.0.0.1
 * and localhost) or a client, written as PEM files, plus SSL contexts for clients that trust a CA
 * and optionally present a certificate.
 */
final class TestCerts {

  private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

  /** A certificate with its key pair. */
  record Issued(X509Certificate cert, KeyPair keys) {}

  private TestCerts() {}

  static KeyPair keys(String algorithm) throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance(algorithm);
    g.initialize(algorithm.equals("RSA") ? 2048 : 256);
    return g.generateKeyPair();
  }

  /** A self-signed CA. */
  static Issued ca(String name) throws Exception {
    KeyPair keys = keys("EC");
    X500Name subject = new X500Name("CN=" + name);
    JcaX509v3CertificateBuilder b = builder(subject, subject, keys);
    b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
    b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
    return new Issued(sign(b, keys), keys);
  }

  /** A server certificate for 127.0.0.1 and localhost signed by {@code ca}. */
  static Issued server(Issued ca, String name, String algorithm) throws Exception {
    KeyPair keys = keys(algorithm);
    JcaX509v3CertificateBuilder b =
        builder(
            new X500Name(ca.cert().getSubjectX500Principal().getName()),
            new X500Name("CN=" + name),
            keys);
    b.addExtension(
        Extension.subjectAlternativeName,
        false,
        new GeneralNames(
            new GeneralName[] {
              new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
              new GeneralName(GeneralName.dNSName, "localhost")
            }));
    b.addExtension(
        Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
    return new Issued(sign(b, ca.keys()), keys);
  }

  /** A client certificate signed by {@code ca}. */
  static Issued client(Issued ca, String name) throws Exception {
    KeyPair keys = keys("EC");
    JcaX509v3CertificateBuilder b =
        builder(
            new X500Name(ca.cert().getSubjectX500Principal().getName()),
            new X500Name("CN=" + name),
            keys);
    b.addExtension(
        Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth));
    return new Issued(sign(b, ca.keys()), keys);
  }

  private static JcaX509v3CertificateBuilder builder(
      X500Name issuer, X500Name subject, KeyPair keys) {
    Instant now = Instant.now();
    return new JcaX509v3CertificateBuilder(
        issuer,
        BigInteger.valueOf(SERIAL.incrementAndGet()),
        Date.from(now.minus(Duration.ofMinutes(5))),
        Date.from(now.plus(Duration.ofDays(2))),
        subject,
        keys.getPublic());
  }

  private static X509Certificate sign(JcaX509v3CertificateBuilder b, KeyPair signer)
      throws Exception {
    String algorithm =
        signer.getPrivate().getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
    return new JcaX509CertificateConverter()
        .getCertificate(b.build(new JcaContentSignerBuilder(algorithm).build(signer.getPrivate())));
  }

  /** The PEM of certificates. */
  static String pem(X509Certificate... certs) throws IOException {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter w = new JcaPEMWriter(out)) {
      for (X509Certificate c : certs) {
        w.writeObject(c);
      }
    }
    return out.toString();
  }

  /** The PEM of a private key, PKCS#8 ({@code BEGIN PRIVATE KEY}) or traditional (PKCS#1). */
  static String keyPem(KeyPair keys, boolean pkcs8) throws IOException {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter w = new JcaPEMWriter(out)) {
      w.writeObject(pkcs8 ? new JcaPKCS8Generator(keys.getPrivate(), null) : keys.getPrivate());
    }
    return out.toString();
  }

  /** Writes the server certificate chain and key as PEM files in {@code dir}. */
  static ApiTls write(Path dir, Issued server, Issued ca, boolean pkcs8, Path clientCa)
      throws IOException {
    Path cert = dir.resolve("tls.crt");
    Path key = dir.resolve("tls.key");
    Files.writeString(cert, pem(server.cert(), ca.cert()));
    Files.writeString(key, keyPem(server.keys(), pkcs8));
    return new ApiTls(cert, key, clientCa);
  }

  /** A client context trusting {@code ca}, presenting {@code client} when it is not null. */
  static SSLContext context(X509Certificate ca, Issued client) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", ca);
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    KeyManagerFactory kmf = null;
    if (client != null) {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry(
          "client",
          client.keys().getPrivate(),
          "x".toCharArray(),
          new X509Certificate[] {client.cert()});
      kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, "x".toCharArray());
    }
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    return context;
  }
}
