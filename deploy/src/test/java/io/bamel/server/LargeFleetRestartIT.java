package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.embedded.EtcdProcess;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.store.Keys;
import io.bamel.inventory.store.TestNodes;
import io.bamel.inventory.testing.EtcdCluster;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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
  private static final PutOption PUT = PutOption.builder().build();

  @Test
  void aServerHolding50000NodesStartsRebuildsItsIndexAndRestarts() throws Exception {
    try (EtcdCluster etcd = EtcdCluster.start(1);
        Client client = etcd.client()) {
      // As if written before the unique index existed: the start-up rebuild writes all of it.
      long writing = System.nanoTime();
      writeFleetWithoutIndex(client);
      System.out.printf(
          "large fleet: %d nodes written in %d ms%n",
          NODES, Duration.ofNanos(System.nanoTime() - writing).toMillis());
      assertThat(count(client, Keys.NODES)).as("spec keys").isEqualTo(NODES);
      assertThat(count(client, Keys.INDEX)).as("index keys before the first start").isZero();

      int port = EtcdProcess.freePort();
      Map<String, String> env = BamelProcess.serverEnv(etcd.endpoints(), "api", port, "-Xmx768m");
      try (BamelProcess first = BamelProcess.start(env, "server")) {
        first.await(
            l -> l.contains("unique index: wrote " + 3 * NODES),
            Duration.ofMinutes(8),
            "the index rebuild");
        assertThat(awaitReadyNodes(port, Duration.ofMinutes(5))).isEqualTo(NODES);
        assertThat(first.terminate(Duration.ofSeconds(60))).isZero();
      }
      assertThat(count(client, Keys.INDEX)).isEqualTo(3L * NODES);

      try (BamelProcess second = BamelProcess.start(env, "server")) {
        assertThat(awaitReadyNodes(port, Duration.ofMinutes(5))).isEqualTo(NODES);
        assertThat(second.lines()).noneMatch(l -> l.contains("unique index: wrote"));
        assertThat(second.terminate(Duration.ofSeconds(60))).isZero();
      }
    }
  }

  /**
   * Writes the fleet's keys as the store lays them out (each node's spec and its pool membership),
   * with no unique-index key: raw transactions of 64 nodes (128 puts, etcd's limit per
   * transaction), eight in flight. The store's own batch upsert would write the index too (then
   * deleted again), one guarded transaction per 14 nodes, one at a time.
   */
  private static void writeFleetWithoutIndex(Client client) throws Exception {
    KV kv = client.getKVClient();
    Deque<CompletableFuture<TxnResponse>> inFlight = new ArrayDeque<>();
    for (int from = 0; from < NODES; from += 64) {
      List<Op> puts = new ArrayList<>(128);
      for (int i = from; i < Math.min(NODES, from + 64); i++) {
        String id = TestNodes.id(i);
        NodeSpec spec = TestNodes.spec(i, "pool-" + (i % 4));
        puts.add(Op.put(bytes(Keys.nodeSpec(id)), ByteSequence.from(Codec.encode(spec)), PUT));
        puts.add(Op.put(bytes(Keys.poolMember(spec.pool(), id)), ByteSequence.EMPTY, PUT));
      }
      inFlight.add(kv.txn().Then(puts.toArray(Op[]::new)).commit());
      if (inFlight.size() == 8) {
        assertThat(inFlight.poll().get(60, TimeUnit.SECONDS).isSucceeded()).isTrue();
      }
    }
    for (CompletableFuture<TxnResponse> t : inFlight) {
      assertThat(t.get(60, TimeUnit.SECONDS).isSucceeded()).isTrue();
    }
  }

  private static long count(Client client, String prefix) throws Exception {
    return client
        .getKVClient()
        .get(bytes(prefix), GetOption.builder().isPrefix(true).withCountOnly(true).build())
        .get(60, TimeUnit.SECONDS)
        .getCount();
  }

  private static ByteSequence bytes(String key) {
    return ByteSequence.from(key, StandardCharsets.UTF_8);
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
          return Codec.mapper().readTree(response.body()).get("nodes").asLong();
        }
      } catch (java.io.IOException notYet) {
        last = notYet.toString();
      }
      Thread.sleep(500);
    }
    throw new AssertionError("not ready within " + timeout + ": " + last);
  }
}
