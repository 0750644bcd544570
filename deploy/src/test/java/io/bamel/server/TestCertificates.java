package io.bamel.server;

import java.io.IOException;
import java.io.Writer;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
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
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throw-away PKI for TLS tests: a CA, a server certificate for 127.0.0.1 and a client
 * certificate, written as PEM files (keys in PKCS#8), as etcd and jetcd read them.
 */
final class TestCertificates {

  final Path caCert;
  final Path serverCert;
  final Path serverKey;
  final Path clientCert;
  final Path clientKey;

  private TestCertificates(Path dir) {
    caCert = dir.resolve("ca.crt");
    serverCert = dir.resolve("server.crt");
    serverKey = dir.resolve("server.key");
    clientCert = dir.resolve("client.crt");
    clientKey = dir.resolve("client.key");
  }

  /** Generates the CA and both certificates into {@code dir}. */
  static TestCertificates generate(Path dir) throws Exception {
    TestCertificates t = new TestCertificates(dir);
    KeyPair ca = keys();
    X500Name caName = new X500Name("CN=bamel test CA");
    X509Certificate caCert = sign(caName, ca, caName, ca.getPublic(), true);
    write(t.caCert, caCert);
    KeyPair server = keys();
    write(
        t.serverCert,
        sign(
            new X500Name("CN=etcd"),
            ca,
            caName,
            server.getPublic(),
            false,
            // etcd also dials itself with its server certificate: it needs both usages.
            KeyPurposeId.id_kp_serverAuth,
            KeyPurposeId.id_kp_clientAuth));
    write(t.serverKey, server.getPrivate());
    KeyPair client = keys();
    write(
        t.clientCert,
        sign(
            new X500Name("CN=bamel"),
            ca,
            caName,
            client.getPublic(),
            false,
            KeyPurposeId.id_kp_clientAuth));
    write(t.clientKey, client.getPrivate());
    return t;
  }

  private static KeyPair keys() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(256);
    return generator.generateKeyPair();
  }

  private static X509Certificate sign(
      X500Name subject,
      KeyPair issuerKeys,
      X500Name issuer,
      java.security.PublicKey subjectKey,
      boolean ca,
      KeyPurposeId... usage)
      throws IOException, GeneralSecurityException, OperatorCreationException {
    Instant now = Instant.now();
    X509v3CertificateBuilder builder =
        new JcaX509v3CertificateBuilder(
            issuer,
            new BigInteger(64, new SecureRandom()),
            Date.from(now.minus(Duration.ofHours(1))),
            Date.from(now.plus(Duration.ofDays(2))),
            subject,
            subjectKey);
    builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
    if (usage.length > 0) {
      builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(usage));
      builder.addExtension(
          Extension.subjectAlternativeName,
          false,
          new GeneralNames(
              new GeneralName[] {
                new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                new GeneralName(GeneralName.dNSName, "localhost")
              }));
    }
    return new JcaX509CertificateConverter()
        .getCertificate(
            builder.build(
                new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKeys.getPrivate())));
  }

  private static void write(Path file, X509Certificate cert) throws IOException {
    try (Writer w = Files.newBufferedWriter(file);
        JcaPEMWriter pem = new JcaPEMWriter(w)) {
      pem.writeObject(cert);
    }
  }

  private static void write(Path file, PrivateKey key) throws IOException {
    try (Writer w = Files.newBufferedWriter(file);
        JcaPEMWriter pem = new JcaPEMWriter(w)) {
      pem.writeObject(new JcaPKCS8Generator(key, null));
    }
  }
}
