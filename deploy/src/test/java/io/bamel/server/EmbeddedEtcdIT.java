package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.embedded.EtcdProcess;
import io.bamel.server.config.ServerConfig;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded etcd against the real {@code etcd} and {@code etcdctl} binaries: only the holder of
 * the client certificate in its data directory reaches it (an {@code etcdctl put} without it fails,
 * with it, as the README shows, works; bamel's own client connects with it), every file of it is
 * readable by its owner only, peers speak TLS too, and a data directory of a plain-HTTP embedded
 * etcd of an older bamel is taken over with its data.
 */
class EmbeddedEtcdIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private record Run(int exit, String out) {}

  /** Runs the real etcdctl against {@code endpoint} with {@code flags}. */
  private static Run etcdctl(String endpoint, List<String> flags, String... command)
      throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add("etcdctl");
    cmd.add("--endpoints=" + endpoint);
    cmd.add("--dial-timeout=2s");
    cmd.add("--command-timeout=4s");
    cmd.addAll(flags);
    cmd.addAll(List.of(command));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().put("ETCDCTL_API", "3");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return new Run(p.exitValue(), out);
  }

  private static List<String> withCertificate(EtcdCertificates.TlsFiles tls) {
    return List.of(
        "--cacert=" + tls.caCert(), "--cert=" + tls.clientCert(), "--key=" + tls.clientKey());
  }

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  private static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }

  private static ServerConfig.Etcd base() {
    return new ServerConfig.Etcd(List.of(), "", "", "", "", "", "", TIMEOUT);
  }

  @Test
  void onlyTheHolderOfItsClientCertificateReachesIt(@TempDir Path tmp) throws Exception {
    Path data = tmp.resolve("var/etcd");
    try (EmbeddedEtcd etcd = EmbeddedEtcd.prepare(data).start()) {
      String endpoint = etcd.endpoint();
      assertThat(endpoint).startsWith("https://127.0.0.1:");
      EtcdCertificates.TlsFiles tls = etcd.tls();
      assertThat(tls.dir()).isEqualTo(data.toAbsolutePath().resolve("tls"));

      // Without a client certificate (trusting the CA, or over plain HTTP) nothing is written.
      Run noCert = etcdctl(endpoint, List.of("--cacert=" + tls.caCert()), "put", "/x", "evil");
      assertThat(noCert.exit()).as(noCert.out()).isNotZero();
      String plainUrl = endpoint.replace("https://", "http://");
      Run plain = etcdctl(plainUrl, List.of(), "put", "/x", "evil");
      assertThat(plain.exit()).as(plain.out()).isNotZero();
      Run insecure =
          etcdctl(
              endpoint,
              List.of("--insecure-transport=false", "--insecure-skip-tls-verify"),
              "put",
              "/x",
              "evil");
      assertThat(insecure.exit()).as(insecure.out()).isNotZero();

      // With the files of the data directory, as the README shows, it works.
      Run put = etcdctl(endpoint, withCertificate(tls), "put", "/x", "operator");
      assertThat(put.exit()).as(put.out()).isZero();
      Run get = etcdctl(endpoint, withCertificate(tls), "get", "/x", "--print-value-only");
      assertThat(get.out().strip()).isEqualTo("operator");

      // bamel's own client connects through the TLS path of external https:// endpoints.
      try (Client client = EtcdConnection.connect(etcd.clientSettings(base()), List.of(endpoint))) {
        var kvs = client.getKVClient().get(bytes("/x")).get(10, TimeUnit.SECONDS).getKvs();
        assertThat(kvs)
            .singleElement()
            .satisfies(
                kv ->
                    assertThat(kv.getValue().toString(StandardCharsets.UTF_8))
                        .isEqualTo("operator"));
      }
      // Without the client certificate jetcd is refused too.
      ServerConfig.Etcd caOnly =
          new ServerConfig.Etcd(List.of(), "", tls.caCert().toString(), "", "", "", "", TIMEOUT);
      try (Client client = EtcdConnection.connect(caOnly, List.of(endpoint))) {
        assertThatThrownBy(
                () -> client.getKVClient().put(bytes("/x"), bytes("evil")).get(5, TimeUnit.SECONDS))
            .isInstanceOf(Exception.class);
      }
      assertThat(etcdctl(endpoint, withCertificate(tls), "get", "/x", "--print-value-only").out())
          .contains("operator");

      // The peer port speaks TLS and demands a certificate as well.
      String log = Files.readString(etcd.logFile());
      assertThat(log).contains("\"listen-peer-urls\":[\"https://127.0.0.1:");
      int peerPort = Integer.parseInt(Files.readAllLines(data.resolve("ports")).get(1).strip());
      assertThat(handshakeWithoutCertificate(tls.caCert(), peerPort)).isFalse();
      assertThat(handshakeWithoutCertificate(tls.caCert(), URI.create(endpoint).getPort()))
          .isFalse();
      // Auto-compaction and the backend quota are on.
      assertThat(log)
          .contains("\"auto-compaction-mode\":\"periodic\"")
          .contains("\"auto-compaction-retention\":\"1h0m0s\"")
          .contains("\"quota-size-bytes\":8589934592");

      // Every file of it is its owner's only.
      assertThat(mode(data)).isEqualTo("rwx------");
      assertThat(mode(tls.dir())).isEqualTo("rwx------");
      try (Stream<Path> files = Files.list(tls.dir())) {
        List<Path> all = files.toList();
        assertThat(all)
            .extracting(p -> p.getFileName().toString())
            .containsExactlyInAnyOrder(
                "ca.crt", "ca.key", "server.crt", "server.key", "client.crt", "client.key");
        for (Path f : all) {
          assertThat(mode(f)).as(f.toString()).isEqualTo("rw-------");
        }
      }
      assertThat(mode(data.resolve("ports"))).isEqualTo("rw-------");
      assertThat(mode(etcd.logFile())).isEqualTo("rw-------");
      assertThat(mode(data.resolve("member"))).isEqualTo("rwx------");
    }
  }

  @Test
  void aRestartKeepsItsCertificatesAndData(@TempDir Path tmp) throws Exception {
    Path data = tmp.resolve("etcd");
    byte[] ca;
    byte[] client;
    try (EmbeddedEtcd etcd = EmbeddedEtcd.prepare(data).start()) {
      ca = Files.readAllBytes(etcd.tls().caCert());
      client = Files.readAllBytes(etcd.tls().clientCert());
      assertThat(etcdctl(etcd.endpoint(), withCertificate(etcd.tls()), "put", "/k", "v").exit())
          .isZero();
    }
    try (EmbeddedEtcd etcd = EmbeddedEtcd.prepare(data).start()) {
      assertThat(Files.readAllBytes(etcd.tls().caCert())).isEqualTo(ca);
      assertThat(Files.readAllBytes(etcd.tls().clientCert())).isEqualTo(client);
      assertThat(
              etcdctl(
                      etcd.endpoint(),
                      withCertificate(etcd.tls()),
                      "get",
                      "/k",
                      "--print-value-only")
                  .out()
                  .strip())
          .isEqualTo("v");
    }
  }

  @Test
  void thePlainHttpDataOfAnOlderBamelIsTakenOverWithItsData(@TempDir Path tmp) throws Exception {
    // What an older bamel left: member data, a ports file, plain HTTP on client and peer ports.
    Path data = Files.createDirectories(tmp.resolve("etcd"));
    int client = EtcdProcess.freePort();
    int peer = EtcdProcess.freePort();
    Files.writeString(data.resolve("ports"), client + "\n" + peer + "\n");
    try (EtcdProcess old =
        new EtcdProcess(EtcdProcess.Config.single("bamel", data.resolve("member"), client, peer))
            .start()
            .awaitHealthy()) {
      assertThat(
              etcdctl(old.clientUrl(), List.of(), "put", "/baremetal/nodes/n1/spec", "{}").exit())
          .isZero();
    }
    try (EmbeddedEtcd etcd = EmbeddedEtcd.prepare(data).start()) {
      assertThat(etcd.endpoint()).isEqualTo("https://127.0.0.1:" + client);
      assertThat(
              etcdctl("http://127.0.0.1:" + client, List.of(), "get", "/baremetal/nodes/n1/spec")
                  .exit())
          .isNotZero();
      try (Client c =
          EtcdConnection.connect(etcd.clientSettings(base()), List.of(etcd.endpoint()))) {
        assertThat(
                c.getKVClient()
                    .get(bytes("/baremetal/nodes/n1/spec"))
                    .get(10, TimeUnit.SECONDS)
                    .getKvs())
            .hasSize(1);
      }
      assertThat(mode(data)).isEqualTo("rwx------");
    }
  }

  /**
   * Whether an HTTPS request that trusts {@code ca} but presents no client certificate gets any
   * answer from 127.0.0.1:{@code port}.
   */
  private static boolean handshakeWithoutCertificate(Path ca, int port) throws Exception {
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    try (InputStream in = Files.newInputStream(ca)) {
      trust.setCertificateEntry(
          "ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext ssl = SSLContext.getInstance("TLS");
    ssl.init(null, tmf.getTrustManagers(), null);
    HttpClient http =
        HttpClient.newBuilder().sslContext(ssl).connectTimeout(Duration.ofSeconds(2)).build();
    try {
      http.send(
          HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/version"))
              .timeout(Duration.ofSeconds(5))
              .build(),
          HttpResponse.BodyHandlers.ofString());
      return true;
    } catch (java.io.IOException e) {
      return false;
    }
  }
}
