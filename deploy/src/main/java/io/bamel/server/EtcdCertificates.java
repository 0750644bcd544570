package io.bamel.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TLS files of the embedded etcd, in one directory (mode {@code 0700}) of its data directory,
 * every file mode {@code 0600}: {@code ca.crt} and {@code ca.key} (the CA, which only this
 * directory trusts), {@code server.crt} and {@code server.key} (etcd's, for clients and peers on
 * 127.0.0.1 and localhost) and {@code client.crt} and {@code client.key} (bamel's own client, and
 * an operator's {@code etcdctl}). They are made at first start and made anew when {@link
 * CertificateRenewal} says so; only the process's user can read them, so only it can reach etcd.
 */
public final class EtcdCertificates {

  private static final Logger LOG = LoggerFactory.getLogger(EtcdCertificates.class);

  /**
   * Where the files are (absolute paths).
   *
   * @param dir the directory
   * @param caCert the CA certificate (etcd's {@code --trusted-ca-file}, etcdctl's {@code --cacert})
   * @param caKey the CA's key
   * @param serverCert etcd's certificate
   * @param serverKey etcd's key
   * @param clientCert the client certificate (etcdctl's {@code --cert})
   * @param clientKey the client key (etcdctl's {@code --key})
   */
  public record TlsFiles(
      Path dir,
      Path caCert,
      Path caKey,
      Path serverCert,
      Path serverKey,
      Path clientCert,
      Path clientKey) {

    /** The layout in {@code dir}. */
    static TlsFiles in(Path dir) {
      Path d = dir.toAbsolutePath().normalize();
      return new TlsFiles(
          d,
          d.resolve("ca.crt"),
          d.resolve("ca.key"),
          d.resolve("server.crt"),
          d.resolve("server.key"),
          d.resolve("client.crt"),
          d.resolve("client.key"));
    }
  }

  private EtcdCertificates() {}

  /**
   * Makes sure {@code dir} holds a usable CA, server and client certificate at {@code now}: keeps
   * the ones that are, makes the others (see {@link CertificateRenewal}), and sets the modes.
   */
  static TlsFiles ensure(Path dir, Instant now) throws IOException {
    TlsFiles files = TlsFiles.in(dir);
    PrivateFiles.directory(files.dir());
    X509Certificate ca = readCertificate(files.caCert());
    PrivateKey caKey = readKey(files.caKey());
    CertificateRenewal.Plan plan =
        CertificateRenewal.plan(
            ca,
            caKey != null,
            readCertificate(files.serverCert()),
            readCertificate(files.clientCert()),
            now);
    if (plan.nothing()) {
      // Kept as they are, but only this user may read them, whoever copied them here.
      for (Path f :
          List.of(
              files.caCert(),
              files.caKey(),
              files.serverCert(),
              files.serverKey(),
              files.clientCert(),
              files.clientKey())) {
        PrivateFiles.restrict(f);
      }
      return files;
    }
    CertificateIssuer.Issued authority;
    if (plan.authority()) {
      authority =
          CertificateIssuer.authority(
              "bamel embedded etcd CA", now, CertificateRenewal.CA_VALIDITY);
    } else {
      authority = new CertificateIssuer.Issued(ca, caKey);
    }
    // Leaves first, the CA last: a start that stops half-way finds leaves the old CA did not sign
    // (or an old CA) and makes them anew.
    if (plan.server()) {
      write(
          CertificateIssuer.leaf(
              authority,
              "bamel embedded etcd",
              CertificateIssuer.Usage.SERVER,
              now,
              CertificateRenewal.LEAF_VALIDITY),
          files.serverCert(),
          files.serverKey());
    }
    if (plan.client()) {
      write(
          CertificateIssuer.leaf(
              authority,
              "bamel",
              CertificateIssuer.Usage.CLIENT,
              now,
              CertificateRenewal.LEAF_VALIDITY),
          files.clientCert(),
          files.clientKey());
    }
    if (plan.authority()) {
      write(authority, files.caCert(), files.caKey());
    }
    LOG.info(
        "embedded etcd: made {} in {} (only this user can read them)",
        plan.authority()
            ? "a new CA and server and client certificates"
            : plan.server() && plan.client()
                ? "new server and client certificates"
                : plan.server() ? "a new server certificate" : "a new client certificate",
        files.dir());
    return files;
  }

  private static void write(CertificateIssuer.Issued issued, Path cert, Path key)
      throws IOException {
    PrivateFiles.write(key, issued.keyPem());
    PrivateFiles.write(cert, issued.certificatePem());
  }

  /** The certificate in {@code file}, or null when it is missing or unreadable. */
  static X509Certificate readCertificate(Path file) {
    if (!Files.isRegularFile(file)) {
      return null;
    }
    try (InputStream in = Files.newInputStream(file)) {
      return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    } catch (IOException | CertificateException | ClassCastException e) {
      LOG.warn("embedded etcd: {} is unreadable ({}); making it anew", file, e.getMessage());
      return null;
    }
  }

  /** The PKCS#8 PEM private key in {@code file}, or null when it is missing or unreadable. */
  static PrivateKey readKey(Path file) {
    if (!Files.isRegularFile(file)) {
      return null;
    }
    try (Reader reader = Files.newBufferedReader(file);
        PEMParser parser = new PEMParser(reader)) {
      if (parser.readObject() instanceof PrivateKeyInfo info) {
        return new JcaPEMKeyConverter().getPrivateKey(info);
      }
    } catch (IOException e) {
      // Unreadable: made anew below.
    }
    LOG.warn("embedded etcd: {} is not a readable private key; making the CA anew", file);
    return null;
  }
}
