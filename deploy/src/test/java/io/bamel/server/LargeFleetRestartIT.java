package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.embedded.EtcdProcess;
import io.bamel.inventory.store.BatchItem;
import io.bamel.inventory.store.BatchResult;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.Keys;
import io.bamel.inventory.store.TestNodes;
import io.bamel.inventory.testing.EtcdCluster;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A server holding 50,000 nodes restarts, as a pod does: the real launcher with a pod-sized heap,
 * against etcd holding the fleet. Above ~21,500 nodes the start-up index rebuild used to read
 * {@code /baremetal/index/} in one reply past gRPC's 4 MiB limit and the server crashed, so a
 * restart became a crash loop; every read is paged now.
 */
class LargeFleetRestartIT {

  private static final int NODES = 50_000;

  @Test
  void aServerHolding50000NodesStartsRebuildsItsIndexAndRestarts() throws Exception {
    try (EtcdCluster etcd = EtcdCluster.start(1);
        Client client = etcd.client()) {
      EtcdInventory store = new EtcdInventory(client);
      List<BatchItem> items = new ArrayList<>(NODES);
      for (int i = 0; i < NODES; i++) {
        items.add(BatchItem.upsert(TestNodes.id(i), TestNodes.spec(i, "pool-" + (i % 4)), null));
      }
      assertThat(store.upsertAll(items)).allMatch(r -> r.outcome() == BatchResult.Outcome.CREATED);
      // As if written before the unique index existed: the start-up rebuild writes all of it.
      ByteSequence index = ByteSequence.from(Keys.INDEX, StandardCharsets.UTF_8);
      client
          .getKVClient()
          .delete(index, DeleteOption.builder().isPrefix(true).build())
          .get(60, TimeUnit.SECONDS);

      int port = EtcdProcess.freePort();
      Map<String, String> env =
          Map.of(
              "BAMEL_ETCD_ENDPOINTS", String.join(",", etcd.endpoints()),
              "BAMEL_AUTH_ANONYMOUS_READ", "true",
              "BAMEL_COMPONENTS", "api",
              "BAMEL_KUBERNETES_MODE", "none",
              "BAMEL_HTTP_PORT", String.valueOf(port),
              "JAVA_OPTS", "-Xmx768m");
      try (BamelProcess first = BamelProcess.start(env, "server")) {
        first.await(
            l -> l.contains("unique index: wrote " + 3 * NODES),
            Duration.ofMinutes(8),
            "the index rebuild");
        assertThat(awaitReadyNodes(port, Duration.ofMinutes(5))).isEqualTo(NODES);
        assertThat(first.terminate(Duration.ofSeconds(60))).isZero();
      }
      long indexKeys =
          client
              .getKVClient()
              .get(index, GetOption.builder().isPrefix(true).withCountOnly(true).build())
              .get(60, TimeUnit.SECONDS)
              .getCount();
      assertThat(indexKeys).isEqualTo(3L * NODES);

      try (BamelProcess second = BamelProcess.start(env, "server")) {
        assertThat(awaitReadyNodes(port, Duration.ofMinutes(5))).isEqualTo(NODES);
        assertThat(second.lines()).noneMatch(l -> l.contains("unique index: wrote"));
        assertThat(second.terminate(Duration.ofSeconds(60))).isZero();
      }
    }
  }

  /** Polls {@code /readyz} until it answers 200; the node count it reports. */
  private static long awaitReadyNodes(int port, Duration timeout) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "";
    while (System.nanoTime() < deadline) {
      try {
        HttpResponse<String> response =
            http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz")).build(),
                HttpResponse.BodyHandlers.ofString());
        last = response.statusCode() + " " + response.body();
        if (response.statusCode() == 200) {
          return io.bamel.inventory.store.Codec.mapper()
              .readTree(response.body())
              .get("nodes")
              .asLong();
        }
      } catch (java.io.IOException notYet) {
        last = notYet.toString();
      }
      Thread.sleep(500);
    }
    throw new AssertionError("not ready within " + timeout + ": " + last);
  }
}
