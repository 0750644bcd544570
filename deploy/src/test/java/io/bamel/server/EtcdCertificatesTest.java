package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EtcdCertificatesTest {

  private static final Instant NOW = Instant.parse("2026-11-25T12:00:00Z");
  private static final Duration YEAR = Duration.ofDays(365);

  private static List<Path> all(EtcdCertificates.TlsFiles f) {
    return List.of(
        f.caCert(), f.caKey(), f.serverCert(), f.serverKey(), f.clientCert(), f.clientKey());
  }

  private static X509Certificate cert(Path p) {
    return EtcdCertificates.readCertificate(p);
  }

  @Test
  void firstStartMakesAPrivateCaServerAndClientCertificate(@TempDir Path dir) throws Exception {
    EtcdCertificates.TlsFiles f = EtcdCertificates.ensure(dir.resolve("tls"), NOW);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f.dir())))
        .isEqualTo("rwx------");
    for (Path p : all(f)) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p)))
          .as(p.toString())
          .isEqualTo("rw-------");
    }
    X509Certificate ca = cert(f.caCert());
    X509Certificate server = cert(f.serverCert());
    X509Certificate client = cert(f.clientCert());
    assertThat(ca.getBasicConstraints()).isGreaterThanOrEqualTo(0);
    assertThat(ca.getNotAfter().toInstant()).isAfter(NOW.plus(YEAR.multipliedBy(9)));
    assertThat(CertificateRenewal.signedBy(server, ca)).isTrue();
    assertThat(CertificateRenewal.signedBy(client, ca)).isTrue();
    assertThat(server.getSubjectAlternativeNames())
        .extracting(n -> n.get(1).toString())
        .contains("127.0.0.1", "localhost");
    assertThat(server.getExtendedKeyUsage())
        .containsExactlyInAnyOrder("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2");
    assertThat(client.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.2");
    assertThat(client.getSubjectX500Principal().getName()).isEqualTo("CN=bamel");
    assertThat(Files.readString(f.clientKey())).startsWith("-----BEGIN PRIVATE KEY-----");
    assertThat(EtcdCertificates.readKey(f.caKey())).isNotNull();
  }

  @Test
  void laterStartsKeepThemUntilALeafNearsItsExpiryThenTheCa(@TempDir Path dir) throws Exception {
    EtcdCertificates.TlsFiles f = EtcdCertificates.ensure(dir, NOW);
    byte[] ca = Files.readAllBytes(f.caCert());
    byte[] server = Files.readAllBytes(f.serverCert());
    byte[] client = Files.readAllBytes(f.clientCert());

    EtcdCertificates.ensure(dir, NOW.plus(YEAR));
    assertThat(Files.readAllBytes(f.caCert())).isEqualTo(ca);
    assertThat(Files.readAllBytes(f.serverCert())).isEqualTo(server);
    assertThat(Files.readAllBytes(f.clientCert())).isEqualTo(client);

    // Two and a half years on, less than a year is left of the leaves: new leaves, same CA.
    Instant later = NOW.plus(YEAR.multipliedBy(5).dividedBy(2));
    EtcdCertificates.ensure(dir, later);
    assertThat(Files.readAllBytes(f.caCert())).isEqualTo(ca);
    assertThat(Files.readAllBytes(f.serverCert())).isNotEqualTo(server);
    assertThat(Files.readAllBytes(f.clientCert())).isNotEqualTo(client);
    assertThat(CertificateRenewal.validFor(cert(f.clientCert()), later, YEAR)).isTrue();

    // Eight years on, the CA has less than a leaf's validity left: everything anew.
    Instant much = NOW.plus(YEAR.multipliedBy(8));
    EtcdCertificates.ensure(dir, much);
    assertThat(Files.readAllBytes(f.caCert())).isNotEqualTo(ca);
    assertThat(CertificateRenewal.signedBy(cert(f.serverCert()), cert(f.caCert()))).isTrue();
    assertThat(CertificateRenewal.signedBy(cert(f.clientCert()), cert(f.caCert()))).isTrue();
  }

  @Test
  void aDamagedOrMissingFileIsMadeAnewAndLooseModesAreTightened(@TempDir Path dir)
      throws Exception {
    EtcdCertificates.TlsFiles f = EtcdCertificates.ensure(dir, NOW);
    byte[] ca = Files.readAllBytes(f.caCert());
    Files.writeString(f.serverCert(), "not a certificate");
    Files.delete(f.clientKey());
    Files.delete(f.clientCert());
    Files.setPosixFilePermissions(f.caKey(), PosixFilePermissions.fromString("rw-r--r--"));
    EtcdCertificates.ensure(dir, NOW);
    assertThat(Files.readAllBytes(f.caCert())).isEqualTo(ca);
    assertThat(CertificateRenewal.signedBy(cert(f.serverCert()), cert(f.caCert()))).isTrue();
    assertThat(f.clientKey()).exists();
    // Nothing to make: the modes are still set.
    EtcdCertificates.ensure(dir, NOW);
    Files.setPosixFilePermissions(f.caKey(), PosixFilePermissions.fromString("rw-r--r--"));
    EtcdCertificates.ensure(dir, NOW);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f.caKey())))
        .isEqualTo("rw-------");

    // A CA key that is not a key: a new CA and new leaves.
    Files.writeString(f.caKey(), "garbage");
    EtcdCertificates.ensure(dir, NOW);
    assertThat(Files.readAllBytes(f.caCert())).isNotEqualTo(ca);
    assertThat(EtcdCertificates.readKey(f.caKey())).isNotNull();
  }
}
