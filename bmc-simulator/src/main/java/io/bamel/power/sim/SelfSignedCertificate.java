package io.bamel.power.sim;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A self-signed certificate for {@code localhost} and {@code 127.0.0.1}, made at start as a BMC
 * makes its own: clients trust it only through its PEM (the "CA bundle") or an explicit insecure
 * opt-in.
 */
public final class SelfSignedCertificate {

  private final X509Certificate certificate;
  private final PrivateKey key;
  private final SSLContext serverContext;

  private SelfSignedCertificate(
      X509Certificate certificate, PrivateKey key, SSLContext serverContext) {
    this.certificate = certificate;
    this.key = key;
    this.serverContext = serverContext;
  }

  /** Generates a new key pair and certificate, valid for a year. */
  public static SelfSignedCertificate generate() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(256);
      KeyPair keys = generator.generateKeyPair();
      X500Name name = new X500Name("CN=bamel simulated BMC");
      Instant now = Instant.now();
      var builder =
          new JcaX509v3CertificateBuilder(
              name,
              new BigInteger(64, new SecureRandom()),
              Date.from(now.minus(Duration.ofHours(1))),
              Date.from(now.plus(Duration.ofDays(365))),
              name,
              keys.getPublic());
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
      builder.addExtension(
          Extension.subjectAlternativeName,
          false,
          new GeneralNames(
              new GeneralName[] {
                new GeneralName(GeneralName.dNSName, "localhost"),
                new GeneralName(GeneralName.iPAddress, "127.0.0.1")
              }));
      X509Certificate certificate =
          new JcaX509CertificateConverter()
              .getCertificate(
                  builder.build(
                      new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      char[] storePassword = new char[0];
      store.setKeyEntry("bmc", keys.getPrivate(), storePassword, new Certificate[] {certificate});
      KeyManagerFactory managers =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      managers.init(store, storePassword);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(managers.getKeyManagers(), null, new SecureRandom());
      return new SelfSignedCertificate(certificate, keys.getPrivate(), context);
    } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
      throw new IllegalStateException("cannot make a self-signed certificate", e);
    }
  }

  /** The certificate. */
  public X509Certificate certificate() {
    return certificate;
  }

  /**
   * A server-side TLS context presenting this certificate. It resumes sessions as OpenSSL-based BMC
   * web servers do: TLS 1.3 session tickets (the JDK's stateless tickets, on by default) and the
   * TLS 1.2 session cache.
   */
  public SSLContext serverContext() {
    return serverContext;
  }

  /** The certificate in PEM: what a client puts in its CA bundle. */
  public String pem() {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(certificate);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return out.toString();
  }

  /**
   * Writes the key and certificate as a PKCS#12 key store (entry {@code bmc}) protected by {@code
   * password}, for servers configured by file (WireMock, say); returns the file.
   */
  public Path writePkcs12(Path file, char[] password) throws IOException {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("bmc", key, password, new Certificate[] {certificate});
      try (OutputStream out = Files.newOutputStream(file)) {
        store.store(out, password);
      }
      return file;
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot write the key store", e);
    }
  }

  /** Writes {@link #pem()} to {@code file}; returns the file. */
  public Path writePem(Path file) throws IOException {
    Files.writeString(file, pem(), StandardCharsets.UTF_8);
    return file;
  }
}
