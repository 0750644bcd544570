package io.bamel.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PoolStatus;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.inventory.model.ResourceCapacity;
import io.bamel.inventory.model.ScalingNode;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.testing.EtcdExtension;
import io.bamel.kube.Fabric8Cluster;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Events drive decisions: with a 10-minute interval (no tick during the test), a pending pod
 * created on the API server reaches the pool controller through the pod informer and wakes it, so
 * the power-on decision reaches etcd long before any tick could. How fast is the benchmark's
 * question, not this test's (`pool-cycle-informer`: pending pod to decision, p99 <= 1 s): a
 * wall-clock bound here failed on a loaded machine while the behaviour was right.
 */
class PendingPodWakeIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  @Test
  void aPendingPodWakesThePoolControllerBeforeAnyTick() throws Exception {
    Client client = ETCD.cluster().client();
    EtcdInventory store = new EtcdInventory(client);
    store.putPoolConfig("gpu", PoolConfig.builder().build(), 0);
    store.createNode(
        "g2",
        NodeSpec.builder()
            .pool("gpu")
            .powerInterface(PowerInterface.of("redfish"))
            .mgmtAddress("https://g2.bmc.test")
            .bmcCredentials("bmc")
            .resources(ResourceCapacity.of("32", "128Gi", null))
            .build(),
        null);
    store.putStatus(
        "g2",
        0,
        NodeStatus.builder()
            .state(NodeState.OFF)
            .observedPower(io.bamel.inventory.model.ObservedPower.OFF)
            .build(),
        null,
        null);
    try (KubeMock api = new KubeMock();
        KubernetesClient kube = api.client();
        Fabric8Cluster cluster = new Fabric8Cluster(api.client());
        Controllers c =
            new Controllers(
                client,
                "a",
                cluster,
                Clock.systemUTC(),
                b -> b.interval(Duration.ofMinutes(10)).wakeDelay(Duration.ofMillis(50)))) {
      assertThat(c.cache.awaitSynced(Duration.ofSeconds(10))).isTrue();
      assertThat(c.election.awaitLeadership(Duration.ofSeconds(10))).isTrue();
      await().atMost(Duration.ofSeconds(10)).until(cluster::synced);
      c.controller.start();
      c.sync();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> c.store.getPool("gpu").map(p -> p.status() != null).orElse(false));

      kube.pods().resource(KubeMock.pending("train-1", "gpu", "cpu", 4)).create();
      // 30 s is far inside the 10-minute interval: only the pod's event can have woken the cycle
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(10))
          .until(() -> scalingUp(store.getPool("gpu").orElseThrow().status()));
      assertThat(store.getPool("gpu").orElseThrow().status().scalingNodes())
          .extracting(ScalingNode::node, ScalingNode::action)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("g2", "power-on"));
    } finally {
      client.close();
    }
  }

  private static boolean scalingUp(PoolStatus s) {
    return s != null
        && s.scalingNodes() != null
        && s.scalingNodes().stream().anyMatch(n -> n.action().equals("power-on"));
  }
}
