package io.bamel.inventory.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.testing.EtcdExtension;
import io.etcd.jetcd.Client;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Replicas share the fleet through the ring of their lease-held keys, on real etcd. */
class ReplicaRegistryIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  private static final ReplicaRegistry.Options FAST =
      new ReplicaRegistry.Options(
          Duration.ofSeconds(2), Duration.ofMillis(300), Duration.ofSeconds(2));

  @Test
  void threeReplicasSplitTheNodesAndTheSurvivorsTakeOverADeadOnesShare() throws Exception {
    Client killed = ETCD.cluster().client();
    try (Client shared = ETCD.cluster().client();
        ReplicaRegistry a = new ReplicaRegistry(shared, "bamel-a", FAST).start()) {
      ReplicaRegistry b = new ReplicaRegistry(shared, "bamel-b", FAST).start();
      ReplicaRegistry c = new ReplicaRegistry(killed, "bamel-c", FAST).start();
      List<ReplicaRegistry> all = List.of(a, b, c);
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  all.stream()
                      .allMatch(
                          r -> r.ring().members().equals(Set.of("bamel-a", "bamel-b", "bamel-c"))));
      for (int i = 0; i < 3_000; i++) {
        String node = "n" + i;
        assertThat(all.stream().filter(r -> r.owns(node)).count())
            .as("owners of %s", node)
            .isEqualTo(1);
      }

      // SIGKILL: no goodbye, the client is gone; its lease expires within the TTL.
      long cut = System.nanoTime();
      killed.close();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> a.ring().members().equals(Set.of("bamel-a", "bamel-b")));
      assertThat(Duration.ofNanos(System.nanoTime() - cut)).isLessThan(Duration.ofSeconds(6));
      await().atMost(Duration.ofSeconds(5)).until(() -> b.ring().members().size() == 2);
      for (int i = 0; i < 3_000; i++) {
        String node = "n" + i;
        assertThat(a.owns(node) ^ b.owns(node)).as("exactly one owner of %s", node).isTrue();
      }
      c.close();

      // A goodbye hands the share over at once.
      b.close();
      await()
          .atMost(Duration.ofSeconds(2))
          .until(() -> a.ring().members().equals(Set.of("bamel-a")));
      assertThat(a.owns("n1") && a.owns("n2")).isTrue();
    }
  }
}
