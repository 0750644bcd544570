package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.embedded.EtcdProcess;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.TestNodes;
import io.bamel.inventory.testing.EtcdCluster;
import io.bamel.inventory.testing.TestPki;
import io.bamel.server.config.ServerConfig;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.auth.Permission;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bamel server}'s etcd connection: TLS with a client certificate, and etcd auth. */
class EtcdConnectionIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }

  private static ServerConfig.Etcd etcd(
      String ca, String cert, String key, String user, String passwordFile) {
    return new ServerConfig.Etcd(List.of(), "", ca, cert, key, user, passwordFile, TIMEOUT);
  }

  @Test
  void tlsWithAClientCertificate(@TempDir Path dir) throws Exception {
    TestPki.PemFiles pki = TestPki.generate(dir);
    int client = EtcdProcess.freePort();
    int peer = EtcdProcess.freePort();
    EtcdProcess.Config config =
        EtcdProcess.Config.single("tls", dir.resolve("data"), client, peer)
            .withClientTls(
                new EtcdProcess.ClientTls(pki.serverCert(), pki.serverKey(), pki.caCert()));
    try (EtcdProcess member = new EtcdProcess(config).start().awaitHealthy()) {
      List<String> endpoints = List.of(member.clientUrl());
      assertThat(endpoints.get(0)).startsWith("https://");
      try (Client c =
          EtcdConnection.connect(
              etcd(
                  pki.caCert().toString(),
                  pki.clientCert().toString(),
                  pki.clientKey().toString(),
                  "",
                  ""),
              endpoints)) {
        EtcdInventory inventory = new EtcdInventory(c);
        inventory.createNode("tls-1", TestNodes.spec(1, "p"), null);
        assertThat(inventory.getNode("tls-1")).isPresent();
      }
      // Without a client certificate the member refuses the connection.
      try (Client c =
          EtcdConnection.connect(etcd(pki.caCert().toString(), "", "", "", ""), endpoints)) {
        assertThatThrownBy(() -> c.getKVClient().get(bytes("/x")).get(5, TimeUnit.SECONDS))
            .isInstanceOf(Exception.class);
      }
    }
  }

  @Test
  void userAndPasswordFromAFile(@TempDir Path dir) throws Exception {
    try (EtcdCluster cluster = EtcdCluster.start(1)) {
      Client admin = cluster.client();
      var auth = admin.getAuthClient();
      auth.roleAdd(bytes("root")).get(10, TimeUnit.SECONDS);
      auth.userAdd(bytes("root"), bytes("root-password")).get(10, TimeUnit.SECONDS);
      auth.userGrantRole(bytes("root"), bytes("root")).get(10, TimeUnit.SECONDS);
      auth.roleAdd(bytes("bamel")).get(10, TimeUnit.SECONDS);
      auth.roleGrantPermission(
              bytes("bamel"), bytes("/baremetal/"), bytes("/baremetal0"), Permission.Type.READWRITE)
          .get(10, TimeUnit.SECONDS);
      auth.userAdd(bytes("bamel"), bytes("s3cret-password")).get(10, TimeUnit.SECONDS);
      auth.userGrantRole(bytes("bamel"), bytes("bamel")).get(10, TimeUnit.SECONDS);
      auth.authEnable().get(10, TimeUnit.SECONDS);

      Path password = Files.writeString(dir.resolve("password"), "s3cret-password\n");
      try (Client c =
          EtcdConnection.connect(
              etcd("", "", "", "bamel", password.toString()), cluster.endpoints())) {
        EtcdInventory inventory = new EtcdInventory(c);
        inventory.createNode("auth-1", TestNodes.spec(1, "p"), null);
        assertThat(inventory.getNode("auth-1")).isPresent();
      }
      Path wrong = Files.writeString(dir.resolve("wrong"), "guess\n");
      try (Client c =
          EtcdConnection.connect(
              etcd("", "", "", "bamel", wrong.toString()), cluster.endpoints())) {
        assertThatThrownBy(
                () -> c.getKVClient().get(bytes("/baremetal/x")).get(10, TimeUnit.SECONDS))
            .hasMessageContaining("UNAUTHENTICATED");
      }
    }
  }
}
