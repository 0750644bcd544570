package io.bamel.server;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
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
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemGenerationException;
import org.bouncycastle.util.io.pem.PemObjectGenerator;

/**
 * Makes the certificates of the embedded etcd: a CA, and leaf certificates it signs (ECDSA P-256,
 * SHA-256), as PEM text in the forms etcd and jetcd read (certificates, keys in PKCS#8). No I/O:
 * {@link EtcdCertificates} decides what to make and writes the files.
 */
final class CertificateIssuer {

  /** A certificate with its private key. */
  record Issued(X509Certificate certificate, PrivateKey key) {

    /** The certificate as PEM. */
    String certificatePem() {
      return pem(certificate);
    }

    /** The key as PKCS#8 PEM. */
    String keyPem() {
      try {
        return pem(new JcaPKCS8Generator(key, null));
      } catch (PemGenerationException e) {
        throw new IllegalStateException("cannot encode a private key: " + e.getMessage(), e);
      }
    }
  }

  /** What a leaf certificate is for. */
  enum Usage {
    /**
     * etcd's own: serves clients and peers, and dials itself (its gRPC gateway) with the same
     * certificate, so both usages; names 127.0.0.1, ::1 and localhost.
     */
    SERVER,
    /** A client's: bamel's own jetcd client and an operator's etcdctl. */
    CLIENT
  }

  private static final SecureRandom RANDOM = new SecureRandom();

  /** Slack for clocks that are a little behind: certificates are valid from an hour ago. */
  private static final Duration BACKDATE = Duration.ofHours(1);

  private CertificateIssuer() {}

  /** A new self-signed CA named {@code commonName}, valid from now for {@code validity}. */
  static Issued authority(String commonName, Instant now, Duration validity) {
    try {
      KeyPair keys = keys();
      X500Name name = new X500Name("CN=" + commonName);
      X509v3CertificateBuilder builder =
          builder(name, name, keys, now, now.plus(validity))
              .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
              .addExtension(
                  Extension.keyUsage,
                  true,
                  new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature))
              .addExtension(
                  Extension.subjectKeyIdentifier,
                  false,
                  new JcaX509ExtensionUtils().createSubjectKeyIdentifier(keys.getPublic()));
      return new Issued(sign(builder, keys.getPrivate()), keys.getPrivate());
    } catch (IOException | GeneralSecurityException | OperatorCreationException e) {
      throw new IllegalStateException("cannot make a CA certificate: " + e.getMessage(), e);
    }
  }

  /**
   * A new leaf certificate for {@code usage} named {@code commonName}, signed by {@code ca}, valid
   * from now for {@code validity} but never past the CA's own expiry.
   */
  static Issued leaf(Issued ca, String commonName, Usage usage, Instant now, Duration validity) {
    try {
      KeyPair keys = keys();
      Instant notAfter = now.plus(validity);
      Instant caNotAfter = ca.certificate().getNotAfter().toInstant();
      if (notAfter.isAfter(caNotAfter)) {
        notAfter = caNotAfter;
      }
      JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
      X509v3CertificateBuilder builder =
          builder(
                  X500Name.getInstance(ca.certificate().getSubjectX500Principal().getEncoded()),
                  new X500Name("CN=" + commonName),
                  keys,
                  now,
                  notAfter)
              .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
              .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
              .addExtension(
                  Extension.subjectKeyIdentifier,
                  false,
                  ext.createSubjectKeyIdentifier(keys.getPublic()))
              .addExtension(
                  Extension.authorityKeyIdentifier,
                  false,
                  ext.createAuthorityKeyIdentifier(ca.certificate()));
      if (usage == Usage.SERVER) {
        builder
            .addExtension(
                Extension.extendedKeyUsage,
                false,
                new ExtendedKeyUsage(
                    new KeyPurposeId[] {
                      KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth
                    }))
            .addExtension(
                Extension.subjectAlternativeName,
                false,
                new GeneralNames(
                    new GeneralName[] {
                      new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                      new GeneralName(GeneralName.iPAddress, "::1"),
                      new GeneralName(GeneralName.dNSName, "localhost")
                    }));
      } else {
        builder.addExtension(
            Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth));
      }
      return new Issued(sign(builder, ca.key()), keys.getPrivate());
    } catch (IOException | GeneralSecurityException | OperatorCreationException e) {
      throw new IllegalStateException("cannot make a certificate: " + e.getMessage(), e);
    }
  }

  private static X509v3CertificateBuilder builder(
      X500Name issuer, X500Name subject, KeyPair keys, Instant now, Instant notAfter) {
    return new JcaX509v3CertificateBuilder(
        issuer,
        new BigInteger(127, RANDOM).add(BigInteger.ONE),
        Date.from(now.minus(BACKDATE)),
        Date.from(notAfter),
        subject,
        keys.getPublic());
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey issuerKey)
      throws OperatorCreationException, GeneralSecurityException {
    return new JcaX509CertificateConverter()
        .getCertificate(
            builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKey)));
  }

  private static KeyPair keys() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
    return generator.generateKeyPair();
  }

  private static String pem(Object value) {
    StringWriter text = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
      if (value instanceof PemObjectGenerator generator) {
        writer.writeObject(generator);
      } else {
        writer.writeObject(value);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot encode PEM: " + e.getMessage(), e);
    }
    return text.toString();
  }
}
