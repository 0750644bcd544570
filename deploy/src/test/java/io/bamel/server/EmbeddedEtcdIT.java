package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.bamel.inventory.embedded.EtcdProcess;
import io.bamel.server.config.ServerConfig;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
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
import org.slf4j.LoggerFactory;

/**
 * The embedded etcd against the real {@code etcd} and {@code etcdctl} binaries: only the holder of
 * the client certificate in its data directory reaches it (an {@code etcdctl put} without it fails,
 * with it, as the README shows, works; bamel's own client connects with it), every file of it is
 * readable by its owner only, peers speak TLS too, and a data directory of a plain-HTTP embedded
 * etcd of an older bamel is taken over with its data. Ports held by another socket (the preferred
 * ones of a new data directory, or those a data directory remembers) make etcd's bind fail: it
 * comes up on free ones instead, remembers them, and a restart serves there again.
 *
 * <p>The "preferred" ports here are ports the test reserved itself, never 2379/2380, which the
 * tests of other JVMs may hold.
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

  /** Two free ports, for the preferred ones (not 2379/2380, which other test JVMs may use). */
  private static EmbeddedEtcdPorts reserved() {
    return ReservedEtcdPorts.free();
  }

  /** A socket listening on 127.0.0.1:{@code port}, as another program holding it would. */
  private static ServerSocket hold(int port) throws Exception {
    ServerSocket socket = new ServerSocket();
    socket.bind(new InetSocketAddress("127.0.0.1", port));
    return socket;
  }

  /** Two sockets listening on free ports of 127.0.0.1: a pair of ports someone else holds. */
  private static List<ServerSocket> holdTwo() throws Exception {
    return List.of(hold(0), hold(0));
  }

  private static EmbeddedEtcdPorts portsOf(List<ServerSocket> held) {
    return new EmbeddedEtcdPorts(held.get(0).getLocalPort(), held.get(1).getLocalPort());
  }

  private static EmbeddedEtcdPorts portsFile(Path data) throws Exception {
    return EmbeddedEtcdPorts.parse(Files.readString(data.resolve("ports")));
  }

  private static int port(String endpoint) {
    return URI.create(endpoint).getPort();
  }

  /** What {@link EmbeddedEtcd} logs while {@code body} runs. */
  private static List<ILoggingEvent> logged(ThrowingRunnable body) throws Exception {
    Logger logger = (Logger) LoggerFactory.getLogger(EmbeddedEtcd.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    try {
      body.run();
    } finally {
      logger.detachAppender(appender);
    }
    return List.copyOf(appender.list);
  }

  /** That {@code log} holds one WARN, and that it says each of {@code parts}. */
  private static void assertOneWarning(List<ILoggingEvent> log, String... parts) {
    assertThat(log)
        .filteredOn(e -> e.getLevel() == Level.WARN)
        .singleElement()
        .satisfies(e -> assertThat(e.getFormattedMessage()).contains(parts));
  }

  private interface ThrowingRunnable {
    void run() throws Exception;
  }

  private static void closeAll(List<ServerSocket> sockets) throws Exception {
    for (ServerSocket s : sockets) {
      s.close();
    }
  }

  @Test
  void takenPreferredPortsMoveToFreeOnesThatARestartReuses(@TempDir Path tmp) throws Exception {
    Path data = tmp.resolve("etcd");
    List<ServerSocket> held = holdTwo();
    try {
      EmbeddedEtcdPorts preferred = portsOf(held);
      String endpoint;
      List<ILoggingEvent> log;
      try (EmbeddedEtcd etcd = EmbeddedEtcd.prepare(data, preferred)) {
        log = logged(etcd::start);
        endpoint = etcd.endpoint();
        EmbeddedEtcdPorts used = portsFile(data);
        assertThat(port(endpoint)).isEqualTo(used.client());
        assertThat(used.uses(preferred.client())).isFalse();
        assertThat(used.uses(preferred.peer())).isFalse();
        assertThat(mode(data.resolve("ports"))).isEqualTo("rw-------");
        // healthy: the real etcdctl writes and reads through the new endpoint
        assertThat(etcdctl(endpoint, withCertificate(etcd.tls()), "put", "/k", "moved").exit())
            .isZero();
        assertThat(Files.readString(etcd.logFile())).contains("bind: address already in use");
      }
      assertThat(log)
          .anySatisfy(
              e ->
                  assertThat(e.getFormattedMessage())
                      .contains("in use by another process")
                      .contains(String.valueOf(preferred.peer())));
      assertThat(log)
          .anySatisfy(e -> assertThat(e.getFormattedMessage()).contains("serving on " + endpoint));

      // The preferred ports are still held: a restart serves where the data directory says.
      try (EmbeddedEtcd etcd = EmbeddedEtcd.prepare(data, preferred)) {
        log = logged(etcd::start);
        assertThat(etcd.endpoint()).isEqualTo(endpoint);
        Run get = etcdctl(endpoint, withCertificate(etcd.tls()), "get", "/k", "--print-value-only");
        assertThat(get.out().strip()).as(get.out()).isEqualTo("moved");
      }
      assertThat(log).isEmpty();
    } finally {
      closeAll(held);
    }
  }

  @Test
  void aRestartWhoseRememberedPortsAreTakenMovesAndWarnsWithTheNewEndpoint(@TempDir Path tmp)
      throws Exception {
    Path data = tmp.resolve("etcd");
    EmbeddedEtcdPorts first;
    try (EmbeddedEtcd etcd = EmbeddedEtcd.prepare(data, reserved()).start()) {
      first = portsFile(data);
      assertThat(etcdctl(etcd.endpoint(), withCertificate(etcd.tls()), "put", "/k", "v").exit())
          .isZero();
    }
    // Another program took both ports while bamel was stopped.
    List<ServerSocket> held = List.of(hold(first.client()), hold(first.peer()));
    try {
      String endpoint;
      List<ILoggingEvent> log;
      try (EmbeddedEtcd etcd = EmbeddedEtcd.prepare(data, reserved())) {
        log = logged(etcd::start);
        endpoint = etcd.endpoint();
        EmbeddedEtcdPorts now = portsFile(data);
        assertThat(port(endpoint)).isEqualTo(now.client()).isNotEqualTo(first.client());
        assertThat(now.peer()).isNotEqualTo(first.peer());
        // the same member, with its data
        Run get = etcdctl(endpoint, withCertificate(etcd.tls()), "get", "/k", "--print-value-only");
        assertThat(get.out().strip()).as(get.out()).isEqualTo("v");
      }
      assertOneWarning(
          log,
          "client port " + first.client() + " was in use",
          "endpoint is now " + endpoint,
          "https://127.0.0.1:" + first.client() + " must use");

      // A restart after that serves on the moved ports, now without a word.
      try (EmbeddedEtcd etcd = EmbeddedEtcd.prepare(data, reserved())) {
        log = logged(etcd::start);
        assertThat(etcd.endpoint()).isEqualTo(endpoint);
      }
      assertThat(log).isEmpty();
    } finally {
      closeAll(held);
    }
  }

  @Test
  void aTakenPeerPortMovesAloneAndTheEndpointStays(@TempDir Path tmp) throws Exception {
    Path data = tmp.resolve("etcd");
    EmbeddedEtcdPorts first;
    String endpoint;
    try (EmbeddedEtcd etcd = EmbeddedEtcd.prepare(data, reserved()).start()) {
      first = portsFile(data);
      endpoint = etcd.endpoint();
    }
    try (ServerSocket held = hold(first.peer())) {
      List<ILoggingEvent> log;
      try (EmbeddedEtcd etcd = EmbeddedEtcd.prepare(data, reserved())) {
        log = logged(etcd::start);
        assertThat(etcd.endpoint()).isEqualTo(endpoint);
        assertThat(portsFile(data).client()).isEqualTo(first.client());
        assertThat(portsFile(data).peer()).isNotEqualTo(held.getLocalPort());
        assertThat(etcdctl(endpoint, withCertificate(etcd.tls()), "put", "/k", "v").exit())
            .isZero();
      }
      assertOneWarning(
          log,
          "peer port " + first.peer() + " was in use",
          "endpoint " + endpoint + " is unchanged");
    }
  }

  @Test
  void onlyTheHolderOfItsClientCertificateReachesIt(@TempDir Path tmp) throws Exception {
    Path data = tmp.resolve("var/etcd");
    try (EmbeddedEtcd etcd = EmbeddedEtcd.prepare(data, reserved()).start()) {
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
    try (EmbeddedEtcd etcd = EmbeddedEtcd.prepare(data, reserved()).start()) {
      ca = Files.readAllBytes(etcd.tls().caCert());
      client = Files.readAllBytes(etcd.tls().clientCert());
      assertThat(etcdctl(etcd.endpoint(), withCertificate(etcd.tls()), "put", "/k", "v").exit())
          .isZero();
    }
    try (EmbeddedEtcd etcd = EmbeddedEtcd.prepare(data, reserved()).start()) {
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
    try (EmbeddedEtcd etcd = EmbeddedEtcd.prepare(data, reserved()).start()) {
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
