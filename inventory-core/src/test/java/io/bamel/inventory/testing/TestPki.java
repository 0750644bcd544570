package io.bamel.inventory.testing;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throw-away PKI for TLS tests, made with Bouncy Castle: CAs, server certificates for 127.0.0.1
 * and localhost and client certificates they sign, and their PEM forms. One helper for every test
 * that needs TLS (etcd's client port, the API, the operations port), so none keeps its own copy of
 * the certificate-builder calls.
 */
public final class TestPki {

  private static final SecureRandom RANDOM = new SecureRandom();

  /** Slack for a clock a little behind: certificates are valid from an hour ago, for two days. */
  private static final Duration BACKDATE = Duration.ofHours(1);

  private static final Duration VALIDITY = Duration.ofDays(2);

  private TestPki() {}

  /** A certificate with its key pair. */
  public record Issued(X509Certificate cert, KeyPair keys) {

    /** The certificate as PEM. */
    public String certPem() throws IOException {
      return pem(cert);
    }

    /** The private key as PEM, PKCS#8 ({@code BEGIN PRIVATE KEY}) or traditional (PKCS#1). */
    public String keyPem(boolean pkcs8) throws IOException {
      return TestPki.keyPem(keys, pkcs8);
    }
  }

  /**
   * The PEM files of one CA, a server certificate it signed and a client certificate it signed,
   * keys in PKCS#8, as etcd, jetcd and bamel's servers read them. {@code serverCert} holds the
   * server's certificate alone (not the chain).
   */
  public record PemFiles(
      Issued ca,
      Issued server,
      Issued client,
      Path caCert,
      Path serverCert,
      Path serverKey,
      Path clientCert,
      Path clientKey) {}

  /** A new key pair: EC P-256, or RSA 2048 for {@code "RSA"}. */
  public static KeyPair keys(String algorithm) throws GeneralSecurityException {
    KeyPairGenerator g = KeyPairGenerator.getInstance(algorithm);
    g.initialize(algorithm.equals("RSA") ? 2048 : 256);
    return g.generateKeyPair();
  }

  /** A self-signed CA named {@code CN=name}. */
  public static Issued ca(String name) throws Exception {
    KeyPair keys = keys("EC");
    X500Name subject = new X500Name("CN=" + name);
    X509v3CertificateBuilder b = builder(subject, subject, keys);
    b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
    b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
    return new Issued(sign(b, keys), keys);
  }

  /**
   * A server certificate for 127.0.0.1 and localhost, {@code CN=name}, with an {@code algorithm}
   * key ({@code "EC"} or {@code "RSA"}), signed by {@code ca}. It may also serve as a client's:
   * etcd dials itself with its server certificate, so it needs both usages.
   */
  public static Issued server(Issued ca, String name, String algorithm) throws Exception {
    KeyPair keys = keys(algorithm);
    X509v3CertificateBuilder b = leaf(ca, name, keys);
    b.addExtension(
        Extension.subjectAlternativeName,
        false,
        new GeneralNames(
            new GeneralName[] {
              new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
              new GeneralName(GeneralName.dNSName, "localhost")
            }));
    b.addExtension(
        Extension.extendedKeyUsage,
        false,
        new ExtendedKeyUsage(
            new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
    return new Issued(sign(b, ca.keys()), keys);
  }

  /** A client certificate {@code CN=name} with an EC key, signed by {@code ca}. */
  public static Issued client(Issued ca, String name) throws Exception {
    KeyPair keys = keys("EC");
    X509v3CertificateBuilder b = leaf(ca, name, keys);
    b.addExtension(
        Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth));
    return new Issued(sign(b, ca.keys()), keys);
  }

  /**
   * A CA ({@code bamel test CA}), a server certificate ({@code CN=etcd}) and a client certificate
   * ({@code CN=bamel}) written into {@code dir} as {@code ca.crt}, {@code server.crt}, {@code
   * server.key}, {@code client.crt} and {@code client.key}.
   */
  public static PemFiles generate(Path dir) throws Exception {
    Issued ca = ca("bamel test CA");
    Issued server = server(ca, "etcd", "EC");
    Issued client = client(ca, "bamel");
    return new PemFiles(
        ca,
        server,
        client,
        Files.writeString(dir.resolve("ca.crt"), ca.certPem()),
        Files.writeString(dir.resolve("server.crt"), server.certPem()),
        Files.writeString(dir.resolve("server.key"), server.keyPem(true)),
        Files.writeString(dir.resolve("client.crt"), client.certPem()),
        Files.writeString(dir.resolve("client.key"), client.keyPem(true)));
  }

  /** The PEM of certificates, in the order given (a chain: the leaf first). */
  public static String pem(X509Certificate... certs) throws IOException {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter w = new JcaPEMWriter(out)) {
      for (X509Certificate c : certs) {
        w.writeObject(c);
      }
    }
    return out.toString();
  }

  /** The PEM of a private key, PKCS#8 ({@code BEGIN PRIVATE KEY}) or traditional (PKCS#1). */
  public static String keyPem(KeyPair keys, boolean pkcs8) throws IOException {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter w = new JcaPEMWriter(out)) {
      w.writeObject(pkcs8 ? new JcaPKCS8Generator(keys.getPrivate(), null) : keys.getPrivate());
    }
    return out.toString();
  }

  private static X509v3CertificateBuilder leaf(Issued ca, String name, KeyPair keys) {
    return builder(
        X500Name.getInstance(ca.cert().getSubjectX500Principal().getEncoded()),
        new X500Name("CN=" + name),
        keys);
  }

  private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys) {
    Instant now = Instant.now();
    return new JcaX509v3CertificateBuilder(
        issuer,
        new BigInteger(64, RANDOM),
        Date.from(now.minus(BACKDATE)),
        Date.from(now.plus(VALIDITY)),
        subject,
        keys.getPublic());
  }

  private static X509Certificate sign(X509v3CertificateBuilder b, KeyPair signer) throws Exception {
    String algorithm =
        signer.getPrivate().getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
    return new JcaX509CertificateConverter()
        .getCertificate(b.build(new JcaContentSignerBuilder(algorithm).build(signer.getPrivate())));
  }
}
