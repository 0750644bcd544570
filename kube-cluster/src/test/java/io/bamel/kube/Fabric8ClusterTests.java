package io.bamel.kube;

import static org.awaitility.Awaitility.await;

import io.bamel.kube.testing.KubeApiServer;
import io.bamel.kube.testing.KubeObjects;
import io.bamel.kube.testing.KubeObjects.PodDraft;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The setup {@link Fabric8Cluster}'s integration tests share, per test: the fabric8 mock API server
 * ({@link KubeApiServer}), a client to it, and a {@link Fabric8Cluster} over it with quick probes
 * ({@link #FAST}) whose informers have synced; closed after the test. Also the nodes and pods the
 * tests create.
 */
abstract class Fabric8ClusterTests {

  /** Quick probes and a short open breaker, for tests. */
  static final Fabric8Cluster.Options FAST =
      new Fabric8Cluster.Options(
          Clock.systemUTC(),
          Duration.ofMinutes(10),
          Duration.ofMillis(100),
          3,
          Duration.ofMillis(300),
          Duration.ofMinutes(1),
          "test",
          Duration.ofSeconds(15));

  /**
   * The longest a test waits for the informers to sync or catch up with the mock server: an upper
   * bound for a loaded machine (where 10 s was seen too short for the first sync), never a claim on
   * speed.
   */
  static final Duration WAIT = Duration.ofSeconds(30);

  KubeApiServer api;
  KubernetesClient kube;
  Fabric8Cluster cluster;

  @BeforeEach
  void start() {
    api = KubeApiServer.start();
    kube = api.client();
    cluster = new Fabric8Cluster(api.client(), FAST);
    await().atMost(WAIT).until(cluster::synced);
  }

  @AfterEach
  void stop() {
    cluster.close();
    kube.close();
    api.close();
  }

  /** A node in zone {@code a} with a note, 8 CPUs and 32 GiB allocatable, Ready or not. */
  static Node node(String name, boolean ready) {
    return KubeObjects.node(name)
        .labels(Map.of("zone", "a"))
        .annotations(Map.of("note", "x"))
        .ready(ready)
        .allocatable("cpu", "8", "memory", "32Gi")
        .build();
  }

  /** A running pod of app {@code app} in {@code apps} on {@code node}, asking 0.5 CPU and 1 GiB. */
  static PodDraft pod(String name, String node, String app) {
    return KubeObjects.pod(name)
        .labels(Map.of("app", app))
        .onNode(node)
        .requests("cpu", "500m", "memory", "1Gi");
  }
}
