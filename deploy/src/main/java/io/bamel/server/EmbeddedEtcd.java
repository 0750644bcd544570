package io.bamel.server;

import io.bamel.inventory.embedded.EtcdProcess;
import io.bamel.server.config.ServerConfig;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded default of {@code bamel server}: an {@code etcd} child process on loopback whose
 * data stays in {@code dataDir} across restarts. Its ports are remembered next to the data (the
 * file {@code dataDir/ports}), so a restart serves the same endpoint; a new data directory tries
 * 2379/2380. Whether a port is free is learnt from etcd's own bind: when etcd exits because a port
 * is in use ({@code bind: address already in use}), it is started again on a fresh port in place of
 * each refused one, up to {@link #ATTEMPTS} times ({@link EmbeddedEtcdPorts} decides which), and
 * the ports that finally worked are written to the file once etcd is healthy; a remembered client
 * port that moves is logged at WARN with the new endpoint, as clients configured with the old one
 * must be told.
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

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedEtcd.class);

  /** History kept by auto-compaction: enough for any watch to resume after a restart. */
  static final Duration COMPACTION_RETENTION = Duration.ofHours(1);

  /** The backend quota: 8 GiB, etcd's largest recommended. */
  static final long QUOTA_BACKEND_BYTES = 8L * 1024 * 1024 * 1024;

  /** Starts of etcd at most, each after one whose port was in use. */
  static final int ATTEMPTS = 5;

  private final Path dir;
  private final EtcdCertificates.TlsFiles tls;
  private final Optional<EmbeddedEtcdPorts> remembered;
  private final EmbeddedEtcdPorts tried;
  private EmbeddedEtcdPorts ports;
  private EtcdProcess process;
  private boolean closed;

  private EmbeddedEtcd(
      Path dir,
      EtcdCertificates.TlsFiles tls,
      Optional<EmbeddedEtcdPorts> remembered,
      EmbeddedEtcdPorts ports) {
    this.dir = dir;
    this.tls = tls;
    this.remembered = remembered;
    this.tried = ports;
    this.ports = ports;
    this.process = process(dir, tls, ports);
  }

  /**
   * The embedded etcd in {@code dataDir}, not started yet: the directory made private, its
   * certificates made or renewed, its ports those remembered in the directory (2379/2380 for a new
   * one).
   *
   * @throws IllegalStateException when etcd is missing or the directory cannot be prepared
   */
  public static EmbeddedEtcd prepare(Path dataDir) {
    return prepare(dataDir, EmbeddedEtcdPorts.PREFERRED, Instant.now());
  }

  /** {@link #prepare(Path)} at {@code now} (when certificates are judged and made). */
  static EmbeddedEtcd prepare(Path dataDir, Instant now) {
    return prepare(dataDir, EmbeddedEtcdPorts.PREFERRED, now);
  }

  /**
   * {@link #prepare(Path)} trying {@code preferred} in a new data directory, in place of 2379/2380
   * (tests, which must not contend for those with the tests of other JVMs).
   */
  static EmbeddedEtcd prepare(Path dataDir, EmbeddedEtcdPorts preferred) {
    return prepare(dataDir, preferred, Instant.now());
  }

  private static EmbeddedEtcd prepare(Path dataDir, EmbeddedEtcdPorts preferred, Instant now) {
    try {
      Path dir = PrivateFiles.directory(dataDir.toAbsolutePath().normalize());
      EtcdCertificates.TlsFiles tls = EtcdCertificates.ensure(dir.resolve("tls"), now);
      Optional<EmbeddedEtcdPorts> remembered = remembered(dir.resolve("ports"));
      EmbeddedEtcd etcd =
          new EmbeddedEtcd(dir, tls, remembered, EmbeddedEtcdPorts.first(remembered, preferred));
      // Everything in the data directory is the owner's only, also what etcd creates itself.
      PrivateFiles.directory(etcd.process.config().dataDir());
      Path log = etcd.process.logFile();
      if (Files.exists(log)) {
        PrivateFiles.restrict(log);
      } else {
        PrivateFiles.write(log, new byte[0]);
      }
      return etcd;
    } catch (IOException e) {
      throw new IllegalStateException("cannot prepare " + dataDir + ": " + e.getMessage(), e);
    }
  }

  private static EtcdProcess process(
      Path dir, EtcdCertificates.TlsFiles tls, EmbeddedEtcdPorts ports) {
    EtcdProcess.Config config =
        EtcdProcess.Config.singleTls(
                "bamel",
                dir.resolve("member"),
                ports.client(),
                ports.peer(),
                new EtcdProcess.ClientTls(tls.serverCert(), tls.serverKey(), tls.caCert()))
            .withMaintenance(
                new EtcdProcess.Maintenance(COMPACTION_RETENTION, QUOTA_BACKEND_BYTES));
    return new EtcdProcess(config, false, true);
  }

  /**
   * Starts (or restarts) the process and waits until it is healthy. When etcd exits because one of
   * its ports is in use, starts it again on fresh ones in their place ({@link #ATTEMPTS} starts at
   * most); once it is healthy, the data directory remembers the ports it got.
   *
   * @throws IllegalStateException when it does not come up, or was closed
   */
  public EmbeddedEtcd start() {
    Set<Integer> refused = new LinkedHashSet<>();
    for (int attempt = 1; ; attempt++) {
      EtcdProcess current;
      long logStart;
      synchronized (this) {
        if (closed) {
          throw new IllegalStateException("embedded etcd closed before it started");
        }
        current = process;
        logStart = logSize(current.logFile());
        current.start();
      }
      try {
        current.awaitHealthy();
        break;
      } catch (IllegalStateException e) {
        Set<Integer> taken = refusedSince(current, logStart);
        taken.removeIf(port -> !ports.uses(port));
        if (taken.isEmpty()) {
          throw e;
        }
        refused.addAll(taken);
        if (attempt == ATTEMPTS) {
          throw new IllegalStateException(
              "embedded etcd: a port on 127.0.0.1 was in use at each of its "
                  + ATTEMPTS
                  + " starts (in use: "
                  + refused
                  + "; last tried "
                  + ports
                  + ")\n"
                  + current.logTail(),
              e);
        }
        retryOn(current, ports.replacing(taken, refused, EtcdProcess::freePort), taken, attempt);
      }
    }
    remember(refused);
    return this;
  }

  /** Replaces the stopped {@code failed} by a process on {@code next}, unless closed meanwhile. */
  private void retryOn(
      EtcdProcess failed, EmbeddedEtcdPorts next, Set<Integer> taken, int attempt) {
    failed.stop();
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("embedded etcd closed before it started");
      }
      LOG.info(
          "embedded etcd: 127.0.0.1 port(s) {} in use by another process; starting it again on {}"
              + " (start {} of {})",
          taken,
          next,
          attempt + 1,
          ATTEMPTS);
      ports = next;
      process = process(dir, tls, next);
    }
  }

  /**
   * Writes the ports etcd serves on to the ports file when it did not hold them, and says when they
   * are not those tried first: at WARN when remembered ones moved, since clients may be configured
   * with them.
   */
  private void remember(Set<Integer> refused) {
    if (remembered.equals(Optional.of(ports))) {
      return;
    }
    Path file = dir.resolve("ports");
    try {
      PrivateFiles.write(file, ports.fileText());
    } catch (IOException e) {
      throw new IllegalStateException("cannot write " + file + ": " + e.getMessage(), e);
    }
    if (remembered.isEmpty()) {
      if (!ports.equals(tried)) {
        LOG.info(
            "embedded etcd: 127.0.0.1 port(s) {} in use by another process, so it is serving on"
                + " {} ({}), remembered in {}",
            refused,
            endpoint(),
            ports,
            file);
      }
      return;
    }
    EmbeddedEtcdPorts old = remembered.get();
    if (old.client() != ports.client()) {
      LOG.warn(
          "embedded etcd: its client port {} was in use by another process; its endpoint is now"
              + " {} ({}), written to {}: clients configured with https://127.0.0.1:{} must use"
              + " the new endpoint",
          old.client(),
          endpoint(),
          ports,
          file,
          old.client());
    } else {
      LOG.warn(
          "embedded etcd: its peer port {} was in use by another process; it now uses peer port"
              + " {}, written to {}; its endpoint {} is unchanged",
          old.peer(),
          ports.peer(),
          file,
          endpoint());
    }
  }

  /** The client URL. */
  public synchronized String endpoint() {
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
  public synchronized Path logFile() {
    return process.logFile();
  }

  /** Stops the process: SIGTERM, and waits for it to exit (SIGKILL only after 10 s). */
  @Override
  public synchronized void close() {
    closed = true;
    process.stop();
  }

  /**
   * The ports {@code file} holds, if it exists.
   *
   * @throws IllegalStateException when it does not hold two ports, naming it
   */
  private static Optional<EmbeddedEtcdPorts> remembered(Path file) throws IOException {
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    try {
      return Optional.of(EmbeddedEtcdPorts.parse(Files.readString(file, StandardCharsets.UTF_8)));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(
          file
              + " is not a ports file of the embedded etcd ("
              + e.getMessage()
              + "); delete it and bamel chooses the ports again",
          e);
    }
  }

  private static long logSize(Path log) {
    try {
      return Files.exists(log) ? Files.size(log) : 0;
    } catch (IOException e) {
      return 0;
    }
  }

  /**
   * The ports a stopped {@code etcd} said, in its log since {@code from}, it could not bind because
   * they were in use; none when it still runs (it did not fail on a port).
   */
  private static Set<Integer> refusedSince(EtcdProcess etcd, long from) {
    if (etcd.isRunning()) {
      return new LinkedHashSet<>();
    }
    try (SeekableByteChannel in = Files.newByteChannel(etcd.logFile())) {
      in.position(from);
      String output =
          new String(Channels.newInputStream(in).readAllBytes(), StandardCharsets.UTF_8);
      return EtcdProcess.portsInUse(output);
    } catch (IOException e) {
      return new LinkedHashSet<>();
    }
  }
}
