package io.bamel.server;

import io.bamel.inventory.embedded.EtcdProcess;
import io.bamel.server.config.ServerConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The embedded default of {@code bamel server}: an {@code etcd} child process on loopback whose
 * data stays in {@code dataDir} across restarts. Its ports are chosen once (2379/2380 when free,
 * else free ones) and remembered next to the data, so a restart finds the same member.
 *
 * <p>Nobody but the process's user can reach it: {@code dataDir} is mode {@code 0700}, and etcd
 * speaks only TLS, to clients and to peers, demanding a client certificate signed by a CA that
 * exists only in {@code dataDir/tls} ({@link EtcdCertificates}, files mode {@code 0600}). Without
 * that certificate an {@code etcdctl put} fails. It compacts its history periodically ({@link
 * #COMPACTION_RETENTION}) and has a backend quota of {@link #QUOTA_BACKEND_BYTES}.
 *
 * <p>Its owner stops it, gracefully (SIGTERM, then waiting for etcd to exit), when it closes it;
 * {@code bamel server} does so last in its own JVM shutdown hook, after the etcd client is closed.
 * There is deliberately no second hook of its own that would SIGKILL it meanwhile. It runs in a
 * session and process group of its own ({@code setsid}), so a Ctrl-C in the terminal reaches bamel
 * only, and bamel stops etcd last. A {@link #close()} while {@link #start()} runs stops the
 * process, and a close before it makes the start fail, so a stop during start-up leaves no etcd
 * behind.
 */
public final class EmbeddedEtcd implements AutoCloseable {

  /** History kept by auto-compaction: enough for any watch to resume after a restart. */
  static final Duration COMPACTION_RETENTION = Duration.ofHours(1);

  /** The backend quota: 8 GiB, etcd's largest recommended. */
  static final long QUOTA_BACKEND_BYTES = 8L * 1024 * 1024 * 1024;

  private final EtcdProcess process;
  private final EtcdCertificates.TlsFiles tls;
  private boolean closed;

  private EmbeddedEtcd(EtcdProcess process, EtcdCertificates.TlsFiles tls) {
    this.process = process;
    this.tls = tls;
  }

  /**
   * The embedded etcd in {@code dataDir}, not started yet: the directory made private, its
   * certificates made or renewed.
   *
   * @throws IllegalStateException when etcd is missing or the directory cannot be prepared
   */
  public static EmbeddedEtcd prepare(Path dataDir) {
    return prepare(dataDir, Instant.now());
  }

  /** {@link #prepare(Path)} at {@code now} (when certificates are judged and made). */
  static EmbeddedEtcd prepare(Path dataDir, Instant now) {
    try {
      Path dir = PrivateFiles.directory(dataDir.toAbsolutePath().normalize());
      EtcdCertificates.TlsFiles tls = EtcdCertificates.ensure(dir.resolve("tls"), now);
      int[] ports = ports(dir.resolve("ports"));
      EtcdProcess.Config config =
          EtcdProcess.Config.singleTls(
                  "bamel",
                  dir.resolve("member"),
                  ports[0],
                  ports[1],
                  new EtcdProcess.ClientTls(tls.serverCert(), tls.serverKey(), tls.caCert()))
              .withMaintenance(
                  new EtcdProcess.Maintenance(COMPACTION_RETENTION, QUOTA_BACKEND_BYTES));
      // Everything in the data directory is the owner's only, also what etcd creates itself.
      PrivateFiles.directory(config.dataDir());
      EtcdProcess process = new EtcdProcess(config, false, true);
      if (Files.exists(process.logFile())) {
        PrivateFiles.restrict(process.logFile());
      } else {
        PrivateFiles.write(process.logFile(), new byte[0]);
      }
      return new EmbeddedEtcd(process, tls);
    } catch (IOException e) {
      throw new IllegalStateException("cannot prepare " + dataDir + ": " + e.getMessage(), e);
    }
  }

  /**
   * Starts (or restarts) the process and waits until it is healthy.
   *
   * @throws IllegalStateException when it does not come up, or was closed
   */
  public EmbeddedEtcd start() {
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("embedded etcd closed before it started");
      }
      process.start();
    }
    process.awaitHealthy();
    return this;
  }

  /** The client URL. */
  public String endpoint() {
    return process.clientUrl();
  }

  /** The TLS files: the CA, and the client certificate and key that reach this etcd. */
  public EtcdCertificates.TlsFiles tls() {
    return tls;
  }

  /**
   * {@code base} (its timeout) with what reaches this etcd: the CA and the client certificate and
   * key, no etcd user.
   */
  public ServerConfig.Etcd clientSettings(ServerConfig.Etcd base) {
    return new ServerConfig.Etcd(
        List.of(endpoint()),
        base.dataDir(),
        tls.caCert().toString(),
        tls.clientCert().toString(),
        tls.clientKey().toString(),
        "",
        "",
        base.timeout());
  }

  /** The log file of the etcd process. */
  public Path logFile() {
    return process.logFile();
  }

  /** Stops the process: SIGTERM, and waits for it to exit (SIGKILL only after 10 s). */
  @Override
  public synchronized void close() {
    closed = true;
    process.stop();
  }

  private static int[] ports(Path file) throws IOException {
    if (Files.exists(file)) {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      return new int[] {
        Integer.parseInt(lines.get(0).trim()), Integer.parseInt(lines.get(1).trim())
      };
    }
    int client = free(2379) ? 2379 : EtcdProcess.freePort();
    int peer = free(2380) ? 2380 : EtcdProcess.freePort();
    PrivateFiles.write(file, client + "\n" + peer + "\n");
    return new int[] {client, peer};
  }

  private static boolean free(int port) {
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress("127.0.0.1", port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
