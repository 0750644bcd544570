package io.bamel.server;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@code bamel server} runs with (from flags and {@code BAMEL_*} environment variables; see
 * {@link ServerCommand}).
 *
 * @param host the address to listen on
 * @param port the HTTP port
 * @param etcdEndpoints etcd client URLs; empty: start the embedded etcd
 * @param dataDir the embedded etcd's data directory (kept across restarts)
 * @param etcdClientPort the embedded etcd's client port
 * @param etcdPeerPort the embedded etcd's peer port
 * @param tokensFile the API tokens file (hashes only)
 * @param anonymousRead whether requests without a token may read
 * @param maxBodyBytes the largest request body
 * @param etcdTls TLS settings for external etcd (null: plain)
 * @param etcdUser etcd user for external etcd (null: no auth)
 * @param etcdPasswordFile the file holding that user's password
 */
public record ServerConfig(
    String host,
    int port,
    List<String> etcdEndpoints,
    Path dataDir,
    int etcdClientPort,
    int etcdPeerPort,
    Path tokensFile,
    boolean anonymousRead,
    long maxBodyBytes,
    EtcdTls etcdTls,
    String etcdUser,
    Path etcdPasswordFile) {

  /** Client TLS for etcd: a CA bundle, and a client certificate and key for mutual TLS. */
  public record EtcdTls(Path caFile, Path certFile, Path keyFile) {}

  /** Copies the endpoints. */
  public ServerConfig {
    etcdEndpoints = List.copyOf(etcdEndpoints);
  }

  /** Whether bamel starts etcd itself. */
  public boolean embeddedEtcd() {
    return etcdEndpoints.isEmpty();
  }
}
