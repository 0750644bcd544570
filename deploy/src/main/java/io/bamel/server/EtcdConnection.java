package io.bamel.server;

import io.bamel.inventory.connection.EtcdClientTuning;
import io.bamel.server.config.ConfigException;
import io.bamel.server.config.ServerConfig;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Builds the jetcd client from the configuration: endpoints, TLS for {@code https://} endpoints
 * (trusting the CA bundle {@code etcd.caFile}, which is then required, and presenting a client
 * certificate and key when given) and etcd authentication (user, and a password read from a file,
 * never from a flag or variable). TLS follows the endpoints' scheme: an {@code https://} endpoint
 * never falls back to plain text. gRPC keepalive finds dead connections ({@link EtcdClientTuning});
 * {@code bamel server} bounds its reconnects with an {@link
 * io.bamel.inventory.connection.EtcdReconnector}.
 */
final class EtcdConnection {

  /**
   * The largest etcd reply the client accepts, set on purpose instead of gRPC's 4 MiB default.
   * Every read bamel makes is paged at 2,000 keys ({@code InventoryCache}, {@code PrefixScan}), and
   * etcd refuses a value above its request limit (1.5 MiB by default), so a reply is 2,000 values
   * of a few KB each in practice (a node's spec, status or readings: 0.5 to 3 KB; 6 MB for a page
   * of 3 KB values, past the 4 MiB default). 64 MiB leaves room for pages of values averaging 32 KB
   * while still bounding what one reply may cost the heap.
   */
  static final int MAX_INBOUND_MESSAGE_BYTES = 64 * 1024 * 1024;

  private EtcdConnection() {}

  static Client connect(ServerConfig.Etcd etcd, List<String> endpoints) {
    ClientBuilder builder =
        EtcdClientTuning.apply(
            Client.builder()
                .endpoints(endpoints.toArray(String[]::new))
                .connectTimeout(etcd.timeout())
                .retryMaxDuration(etcd.timeout())
                .maxInboundMessageSize(MAX_INBOUND_MESSAGE_BYTES));
    try {
      if (endpoints.stream().anyMatch(e -> e.startsWith("https://"))) {
        if (etcd.caFile().isEmpty()) {
          throw new ConfigException(
              "etcd.endpoints use https:// but etcd.caFile is empty: set etcd.caFile to the CA"
                  + " bundle that signed etcd's certificate");
        }
        builder.sslContext(
            ssl -> {
              ssl.trustManager(new File(etcd.caFile()));
              if (!etcd.certFile().isEmpty()) {
                ssl.keyManager(new File(etcd.certFile()), new File(etcd.keyFile()));
              }
            });
      }
      if (!etcd.user().isEmpty()) {
        String password =
            Files.readString(Path.of(etcd.passwordFile()), StandardCharsets.UTF_8).strip();
        builder
            .user(ByteSequence.from(etcd.user(), StandardCharsets.UTF_8))
            .password(ByteSequence.from(password, StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new ConfigException("etcd TLS or password file unreadable: " + e.getMessage());
    }
    return builder.build();
  }
}
