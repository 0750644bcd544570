package io.bamel.server;

import io.bamel.inventory.store.EtcdProcess;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The embedded default of {@code bamel server}: an {@code etcd} child process on loopback whose
 * data stays in {@code dataDir} across restarts. Its ports are chosen once (2379/2380 when free,
 * else free ones) and remembered next to the data, so a restart finds the same member.
 *
 * <p>Its owner stops it, gracefully (SIGTERM, then waiting for etcd to exit), when it closes it;
 * {@code bamel server} does so last in its own JVM shutdown hook, after the etcd client is closed.
 * There is deliberately no second hook of its own that would SIGKILL it meanwhile. A {@link
 * #close()} while {@link #start()} runs stops the process, and a close before it makes the start
 * fail, so a stop during start-up leaves no etcd behind.
 */
public final class EmbeddedEtcd implements AutoCloseable {

  private final EtcdProcess process;
  private boolean closed;

  private EmbeddedEtcd(EtcdProcess process) {
    this.process = process;
  }

  /**
   * The embedded etcd in {@code dataDir}, not started yet.
   *
   * @throws IllegalStateException when etcd is missing or the directory cannot be prepared
   */
  public static EmbeddedEtcd prepare(Path dataDir) {
    try {
      Path dir = dataDir.toAbsolutePath().normalize();
      Files.createDirectories(dir);
      int[] ports = ports(dir.resolve("ports"));
      return new EmbeddedEtcd(
          new EtcdProcess(
              EtcdProcess.Config.single("bamel", dir.resolve("member"), ports[0], ports[1]),
              false));
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
    Files.writeString(file, client + "\n" + peer + "\n", StandardCharsets.UTF_8);
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
