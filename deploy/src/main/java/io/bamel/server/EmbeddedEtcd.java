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
 * else free ones) and remembered next to the data, so a restart finds the same member. Stopped when
 * closed; a JVM shutdown hook kills it if the JVM dies first.
 */
public final class EmbeddedEtcd implements AutoCloseable {

  private final EtcdProcess process;

  private EmbeddedEtcd(EtcdProcess process) {
    this.process = process;
  }

  /**
   * Starts (or restarts) the embedded etcd in {@code dataDir} and waits until it is healthy.
   *
   * @throws IllegalStateException when etcd is missing or does not come up
   */
  public static EmbeddedEtcd start(Path dataDir) {
    try {
      Path dir = dataDir.toAbsolutePath().normalize();
      Files.createDirectories(dir);
      int[] ports = ports(dir.resolve("ports"));
      EtcdProcess process =
          new EtcdProcess(
              EtcdProcess.Config.single("bamel", dir.resolve("member"), ports[0], ports[1]));
      process.start().awaitHealthy();
      return new EmbeddedEtcd(process);
    } catch (IOException e) {
      throw new IllegalStateException("cannot prepare " + dataDir + ": " + e.getMessage(), e);
    }
  }

  /** The client URL. */
  public String endpoint() {
    return process.clientUrl();
  }

  /** The log file of the etcd process. */
  public Path logFile() {
    return process.logFile();
  }

  @Override
  public void close() {
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
