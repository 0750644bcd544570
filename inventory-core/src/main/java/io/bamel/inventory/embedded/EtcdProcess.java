package io.bamel.inventory.embedded;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code etcd} server process on loopback: used by {@code bamel server} when no endpoints are
 * configured (the embedded default), by the test harness and by the benchmarks. It finds the binary
 * ({@code BAMEL_ETCD_BIN}, else {@code etcd} on the PATH), starts it with its own data directory
 * and log file, waits until it is healthy, and stops it (gracefully, or by SIGKILL). By default a
 * JVM shutdown hook kills a process that was not stopped, so none is left behind; an owner that
 * stops the process itself in its own shutdown hook (the embedded etcd of {@code bamel server})
 * turns that reaper off, so that the reaper's SIGKILL does not race the owner's graceful stop. Such
 * an owner also starts the process in a session of its own ({@link OwnSession}): a terminal's
 * Ctrl-C then reaches only the owner, which stops etcd last, after everything that uses it.
 */
public final class EtcdProcess implements AutoCloseable {

  /**
   * TLS on the client port: the member's certificate and key, and the CA whose client certificates
   * it accepts (clients must present one).
   */
  public record ClientTls(Path certFile, Path keyFile, Path trustedCaFile) {}

  /**
   * Keeping the member's database small: periodic auto-compaction keeping {@code
   * compactionRetention} of history, and the backend quota in bytes (past it etcd raises the
   * NOSPACE alarm and accepts only reads and deletes).
   */
  public record Maintenance(Duration compactionRetention, long quotaBackendBytes) {}

  /**
   * How to start one member; {@code clientTls} null serves plain HTTP; {@code peerTls} (with {@code
   * clientTls}) also speaks TLS to peers, with the same certificate and CA, demanding certificates
   * of peers; {@code maintenance} null leaves etcd's defaults (no auto-compaction, 2 GiB quota).
   */
  public record Config(
      String name,
      Path dataDir,
      int clientPort,
      int peerPort,
      String initialCluster,
      boolean newCluster,
      String clusterToken,
      ClientTls clientTls,
      boolean peerTls,
      Maintenance maintenance) {

    /** A member without peer TLS or maintenance settings. */
    public Config(
        String name,
        Path dataDir,
        int clientPort,
        int peerPort,
        String initialCluster,
        boolean newCluster,
        String clusterToken,
        ClientTls clientTls) {
      this(
          name,
          dataDir,
          clientPort,
          peerPort,
          initialCluster,
          newCluster,
          clusterToken,
          clientTls,
          false,
          null);
    }

    /** A single-member cluster in {@code dataDir} on the given ports. */
    public static Config single(String name, Path dataDir, int clientPort, int peerPort) {
      return new Config(
          name,
          dataDir,
          clientPort,
          peerPort,
          name + "=http://127.0.0.1:" + peerPort,
          true,
          "bamel-" + name,
          null);
    }

    /**
     * A single-member cluster in {@code dataDir} speaking TLS on both its client and its peer port,
     * with {@code tls}'s certificate, accepting only clients and peers with a certificate signed by
     * {@code tls}'s CA.
     */
    public static Config singleTls(
        String name, Path dataDir, int clientPort, int peerPort, ClientTls tls) {
      return new Config(
          name,
          dataDir,
          clientPort,
          peerPort,
          name + "=https://127.0.0.1:" + peerPort,
          true,
          "bamel-" + name,
          tls,
          true,
          null);
    }

    /** This configuration serving its clients over TLS with client certificates. */
    public Config withClientTls(ClientTls tls) {
      return new Config(
          name,
          dataDir,
          clientPort,
          peerPort,
          initialCluster,
          newCluster,
          clusterToken,
          tls,
          peerTls,
          maintenance);
    }

    /** This configuration with auto-compaction and a backend quota. */
    public Config withMaintenance(Maintenance m) {
      return new Config(
          name,
          dataDir,
          clientPort,
          peerPort,
          initialCluster,
          newCluster,
          clusterToken,
          clientTls,
          peerTls,
          m);
    }

    /** The client URL, {@code http(s)://127.0.0.1:port}. */
    public String clientUrl() {
      return (clientTls == null ? "http" : "https") + "://127.0.0.1:" + clientPort;
    }

    /** The peer URL, {@code http(s)://127.0.0.1:port}. */
    public String peerUrl() {
      return (peerTls && clientTls != null ? "https" : "http") + "://127.0.0.1:" + peerPort;
    }
  }

  private static final Pattern PORT_IN_USE =
      Pattern.compile("listen tcp [^\\s\"]*:(\\d+): bind: address already in use");

  private static final Logger LOG = LoggerFactory.getLogger(EtcdProcess.class);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  /**
   * The writes etcd's backend buffers before it commits them to its database, at most (etcd's
   * default: 10,000), passed as {@code --backend-batch-limit}. Why lower: every read transaction of
   * etcd 3.4 copies the whole of that buffer at its largest size since start-up (it grows in a
   * burst of writes and never shrinks while writes keep coming), so a large buffer makes every
   * later read allocate, and etcd's garbage collector sets the tail of every request. Figures:
   * docs/benchmarks.md, "Figures behind the code".
   */
  static final int BACKEND_BATCH_LIMIT = 1_000;

  private final Config config;
  private final Path binary;
  private final boolean reaper;
  private final boolean ownSession;
  private Process process;
  private long logOffset;
  private Thread hook;
  private boolean started;

  /** A member that is not started yet, killed by a JVM shutdown hook if never stopped. */
  public EtcdProcess(Config config) {
    this(config, true);
  }

  /**
   * A member that is not started yet.
   *
   * @param reaper whether a JVM shutdown hook kills (SIGKILL) the process if it was not stopped;
   *     false when the owner stops it itself, gracefully, when the JVM exits
   */
  public EtcdProcess(Config config, boolean reaper) {
    this(config, reaper, false);
  }

  /**
   * A member that is not started yet.
   *
   * @param reaper whether a JVM shutdown hook kills (SIGKILL) the process if it was not stopped
   * @param ownSession whether the process runs in a session and process group of its own ({@link
   *     OwnSession}), so that signals sent to the owner's process group (a terminal's Ctrl-C) do
   *     not reach it; without {@code setsid} on the PATH it shares the owner's group
   */
  public EtcdProcess(Config config, boolean reaper, boolean ownSession) {
    this.config = config;
    this.binary = findBinary();
    this.reaper = reaper;
    this.ownSession = ownSession;
  }

  /**
   * The etcd binary: {@code BAMEL_ETCD_BIN}, else {@code etcd} on the PATH.
   *
   * @throws IllegalStateException naming the package to install when there is none
   */
  public static Path findBinary() {
    return findBinary(System.getenv());
  }

  /** {@link #findBinary()} over the given environment. */
  static Path findBinary(java.util.Map<String, String> env) {
    String configured = env.get("BAMEL_ETCD_BIN");
    if (configured != null && !configured.isBlank()) {
      Path p = Path.of(configured);
      if (Files.isExecutable(p)) {
        return p;
      }
      throw new IllegalStateException("BAMEL_ETCD_BIN=" + configured + " is not an executable");
    }
    for (String dir : env.getOrDefault("PATH", "").split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "etcd"))) {
        return Path.of(dir, "etcd");
      }
    }
    throw new IllegalStateException(
        "etcd not found: install the Debian package etcd-server (apt-get install etcd-server),"
            + " or set BAMEL_ETCD_BIN to an etcd 3.4+ binary");
  }

  /** A free TCP port on 127.0.0.1 (free when asked; etcd binds it right after). */
  public static int freePort() {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(false);
      socket.bind(new InetSocketAddress("127.0.0.1", 0));
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free port on 127.0.0.1", e);
    }
  }

  /** The member's configuration. */
  public Config config() {
    return config;
  }

  /** The client URL. */
  public String clientUrl() {
    return config.clientUrl();
  }

  /** The operating-system process id, or -1 when not running. */
  public long pid() {
    Process p = process;
    return p == null ? -1 : p.pid();
  }

  /** Whether the process is running. */
  public boolean isRunning() {
    return process != null && process.isAlive();
  }

  /** The log file the process writes to. */
  public Path logFile() {
    return config.dataDir().resolveSibling(config.name() + ".log");
  }

  /**
   * Starts the process and waits until it answers {@code /health}. A member restarted after a stop
   * joins its existing data.
   *
   * @throws IllegalStateException with the log's last lines when it does not come up
   */
  public synchronized EtcdProcess start() {
    if (isRunning()) {
      return this;
    }
    try {
      Files.createDirectories(config.dataDir());
      List<String> cmd = new ArrayList<>();
      if (ownSession) {
        // in a session of its own, an etcd outlives a bamel killed outright: stop such leftovers
        OrphanReaper.reap(config.dataDir());
        List<String> prefix = OwnSession.prefix(System.getenv());
        if (prefix.isEmpty()) {
          LOG.warn(
              "setsid (util-linux) is not on the PATH: etcd {} shares bamel's process group, so"
                  + " a Ctrl-C in the terminal stops it at once, before bamel has stopped",
              config.name());
        }
        cmd.addAll(prefix);
      }
      cmd.add(binary.toString());
      cmd.add("--name=" + config.name());
      cmd.add("--data-dir=" + config.dataDir());
      cmd.add("--listen-client-urls=" + config.clientUrl());
      cmd.add("--advertise-client-urls=" + config.clientUrl());
      cmd.add("--listen-peer-urls=" + config.peerUrl());
      cmd.add("--initial-advertise-peer-urls=" + config.peerUrl());
      cmd.add("--initial-cluster=" + config.initialCluster());
      cmd.add("--initial-cluster-token=" + config.clusterToken());
      cmd.add("--initial-cluster-state=" + (config.newCluster() && !started ? "new" : "existing"));
      if (config.clientTls() != null) {
        cmd.add("--cert-file=" + config.clientTls().certFile());
        cmd.add("--key-file=" + config.clientTls().keyFile());
        cmd.add("--trusted-ca-file=" + config.clientTls().trustedCaFile());
        cmd.add("--client-cert-auth");
        if (config.peerTls()) {
          cmd.add("--peer-cert-file=" + config.clientTls().certFile());
          cmd.add("--peer-key-file=" + config.clientTls().keyFile());
          cmd.add("--peer-trusted-ca-file=" + config.clientTls().trustedCaFile());
          cmd.add("--peer-client-cert-auth");
        }
      }
      if (config.maintenance() != null) {
        cmd.add("--auto-compaction-mode=periodic");
        cmd.add(
            "--auto-compaction-retention="
                + config.maintenance().compactionRetention().toSeconds()
                + "s");
        cmd.add("--quota-backend-bytes=" + config.maintenance().quotaBackendBytes());
      }
      cmd.add("--backend-batch-limit=" + BACKEND_BATCH_LIMIT);
      cmd.add("--heartbeat-interval=50");
      cmd.add("--election-timeout=500");
      cmd.add("--logger=zap");
      cmd.add("--log-outputs=stderr");
      logOffset = Files.exists(logFile()) ? Files.size(logFile()) : 0;
      ProcessBuilder pb = new ProcessBuilder(cmd);
      pb.redirectErrorStream(true);
      pb.redirectOutput(ProcessBuilder.Redirect.appendTo(logFile().toFile()));
      pb.environment().put("ETCD_UNSUPPORTED_ARCH", System.getProperty("os.arch"));
      process = pb.start();
      started = true;
      if (reaper) {
        Process p = process;
        hook = new Thread(p::destroyForcibly, "etcd-" + config.name() + "-reaper");
        Runtime.getRuntime().addShutdownHook(hook);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot start etcd: " + e.getMessage(), e);
    }
    return this;
  }

  /** Waits until the member answers {@code /health} with a leader elected. */
  public EtcdProcess awaitHealthy() {
    return awaitHealthy(START_TIMEOUT);
  }

  /** Waits until the member answers {@code /health}, at most {@code timeout}. */
  public EtcdProcess awaitHealthy(Duration timeout) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (process == null || !process.isAlive()) {
        throw new IllegalStateException(
            "etcd " + config.name() + " exited during start-up:\n" + logTail());
      }
      if (config.clientTls() == null ? healthy(http) : logSays("serving client traffic securely")) {
        return this;
      }
      sleep(50);
    }
    throw new IllegalStateException(
        "etcd "
            + config.name()
            + " not healthy within "
            + timeout.toSeconds()
            + " s:\n"
            + logTail());
  }

  /**
   * Whether the member's log since its last start contains {@code text} (how a TLS member is seen
   * to be up: its /health needs a client certificate).
   */
  private boolean logSays(String text) {
    try {
      if (!Files.exists(logFile())) {
        return false;
      }
      byte[] all = Files.readAllBytes(logFile());
      int from = (int) Math.min(logOffset, all.length);
      return new String(all, from, all.length - from, StandardCharsets.UTF_8).contains(text);
    } catch (IOException e) {
      return false;
    }
  }

  /** Whether the member answers at all (its client port accepts connections). */
  public boolean listening() {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", config.clientPort()), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private boolean healthy(HttpClient http) {
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create(config.clientUrl() + "/health"))
                  .timeout(Duration.ofSeconds(1))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 && r.body().contains("\"true\"");
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Stops the process with SIGTERM and waits for it to exit (SIGKILL after 10 s). */
  public synchronized void stop() {
    if (process == null) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    release();
  }

  /** Kills the process with SIGKILL, as a crash would. */
  public synchronized void kill() {
    if (process == null) {
      return;
    }
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    release();
  }

  private void release() {
    process = null;
    if (hook != null) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // The JVM is shutting down; the hook runs anyway.
      }
      hook = null;
    }
  }

  /** Stops the process. */
  @Override
  public void close() {
    stop();
  }

  /**
   * The ports that etcd's {@code output} (its log, or an error message quoting it) says it could
   * not bind because another socket holds them, in the order it said so: Go's net.Listen writes
   * {@code listen tcp 127.0.0.1:2380: bind: address already in use}. A port chosen free can be
   * taken by another process before etcd binds it; a caller that chose the port may start etcd
   * again on another.
   */
  public static Set<Integer> portsInUse(String output) {
    Set<Integer> ports = new LinkedHashSet<>();
    Matcher m = PORT_IN_USE.matcher(output);
    while (m.find()) {
      ports.add(Integer.parseInt(m.group(1)));
    }
    return ports;
  }

  /** The last 40 lines of the log, for error messages. */
  public String logTail() {
    try {
      List<String> lines = Files.readAllLines(logFile(), StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
