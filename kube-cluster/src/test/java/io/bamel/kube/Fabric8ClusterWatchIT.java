package io.bamel.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.cluster.ClusterFencedException;
import io.bamel.inventory.cluster.ClusterUnavailableException;
import io.bamel.inventory.cluster.FencedCluster;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.NodeNotice;
import io.bamel.inventory.cluster.PodRef;
import io.bamel.inventory.cluster.PodSummary;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.threeten.extra.MutableClock;

/**
 * {@link Fabric8Cluster}'s informers, fencing, Events and breaker against the mock API server
 * (watches over HTTP, see KubeApiServer) and against a server that never answers.
 */
class Fabric8ClusterWatchIT extends Fabric8ClusterTests {

  static Pod pending(String name) {
    return pod(name, null, "web").pending().build();
  }

  @Test
  void aPendingPodIsSignalledFromTheWatchAndARunningOneIsNot() {
    List<KubePod> seen = new CopyOnWriteArrayList<>();
    cluster.onPendingPod(seen::add);
    kube.pods().resource(pending("web-9")).create();
    // signalled from the watch, without a resync (the informers resync every 10 minutes here);
    // how soon is the mock server's polling and the machine's load, not a property of this code
    await().atMost(WAIT).until(() -> !seen.isEmpty());
    assertThat(seen.get(0).ref()).isEqualTo(new PodRef("apps", "web-9"));
    // a running pod is no news
    kube.pods().resource(pod("web-1", null, "web").build()).create();
    await().atMost(WAIT).untilAsserted(() -> assertThat(cluster.pods()).hasSize(2));
    assertThat(seen).hasSize(1);
  }

  @Test
  void theInformerListsAgainAfterAGoneWatch() {
    long listsBefore = lists("/api/v1/nodes?");
    api.expireWatches(2);
    kube.nodes().resource(node("n1", true)).create();
    await().atMost(WAIT).untilAsserted(() -> assertThat(cluster.node("n1")).isPresent());
    assertThat(lists("/api/v1/nodes?") + lists("/api/v1/pods?"))
        .as("410 Gone makes the informers list again")
        .isGreaterThan(listsBefore + 1);
    // and it keeps watching afterwards
    kube.nodes().resource(node("n2", true)).create();
    await().atMost(WAIT).untilAsserted(() -> assertThat(cluster.node("n2")).isPresent());
  }

  @Test
  void podTotalsFollowTheEventsAndAGoneWatch() {
    kube.pods().resource(pod("a", "n1", "web").build()).create();
    kube.pods().resource(pod("b", "n1", "web").build()).create();
    kube.pods().resource(pending("wait")).create();
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              PodSummary s = cluster.podSummary();
              // an assertion, not a NullPointerException: Awaitility polls again only on the former
              assertThat(s.byNode()).containsKey("n1");
              assertThat(s.byNode().get("n1").pods()).isEqualTo(2);
              assertThat(s.byNode().get("n1").requests().get("cpu")).isEqualByComparingTo("1");
              assertThat(s.unschedulable()).extracting(p -> p.ref().name()).contains("wait");
            });
    api.expireWatches(2);
    kube.pods().inNamespace("apps").withName("b").delete();
    kube.pods().inNamespace("apps").withName("wait").delete();
    kube.pods().resource(pod("wait", "n2", "web").build()).create();
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              PodSummary s = cluster.podSummary();
              assertThat(s.byNode().keySet()).containsExactlyInAnyOrder("n1", "n2");
              assertThat(s.byNode().get("n1").pods()).isEqualTo(1);
              assertThat(s.byNode().get("n2").requests().get("cpu")).isEqualByComparingTo("0.5");
              assertThat(s.unschedulable()).isEmpty();
              assertThat(s.byNode()).isEqualTo(PodSummary.of(cluster.pods()).byNode());
            });
  }

  private long lists(String prefix) {
    return api.requests().stream()
        .filter(r -> r.startsWith("GET " + prefix) && !r.contains("watch=true"))
        .count();
  }

  @Test
  void aDeposedLeadersCordonNeverReachesTheServer() {
    kube.nodes().resource(node("n1", true)).create();
    await().atMost(WAIT).until(() -> cluster.node("n1").isPresent());
    FencedCluster deposed = new FencedCluster(cluster, () -> false, "leadership of test");
    int before = api.requests().size();
    assertThatThrownBy(() -> deposed.cordon("n1"))
        .isInstanceOf(ClusterFencedException.class)
        .hasMessageContaining("cordon of n1 not sent");
    assertThatThrownBy(() -> deposed.label("n1", Map.of("a", "b")))
        .isInstanceOf(ClusterFencedException.class);
    assertThatThrownBy(() -> deposed.evict(new PodRef("apps", "x")))
        .isInstanceOf(ClusterFencedException.class);
    assertThat(
            api.requests().subList(before, api.requests().size()).stream()
                .filter(r -> !r.startsWith("GET"))
                .toList())
        .as("no write reached the server")
        .isEmpty();
    var spec = kube.nodes().withName("n1").get().getSpec();
    assertThat(spec == null ? null : spec.getUnschedulable()).isNull();
    FencedCluster leader = new FencedCluster(cluster, () -> true, "leadership of test");
    assertThat(leader.cordon("n1")).isTrue();
    assertThat(kube.nodes().withName("n1").get().getSpec().getUnschedulable()).isTrue();
  }

  @Test
  void eventsArePostedAsEventsV1RegardingTheNodeAndRateLimited() {
    kube.nodes().resource(node("n1", true)).create();
    await().atMost(WAIT).until(() -> cluster.node("n1").isPresent());
    String uid = kube.nodes().withName("n1").get().getMetadata().getUid();
    cluster.notice(new NodeNotice("n1", false, "Draining", "Drain", "evicting 2 pods"));
    cluster.notice(new NodeNotice("n1", false, "Draining", "Drain", "evicting 2 pods"));
    cluster.notice(new NodeNotice("n1", true, "PowerOnFailed", "PowerOn", "BMC timed out"));
    assertThat(api.eventBodies()).as("the duplicate is dropped").hasSize(2);
    Map<?, ?> event = new KubernetesSerialization().unmarshal(api.eventBodies().get(0), Map.class);
    assertThat(event.get("apiVersion")).isEqualTo("events.k8s.io/v1");
    assertThat(event.get("kind")).isEqualTo("Event");
    assertThat(event.get("reason")).isEqualTo("Draining");
    assertThat(event.get("action")).isEqualTo("Drain");
    assertThat(event.get("note")).isEqualTo("evicting 2 pods");
    assertThat(event.get("type")).isEqualTo("Normal");
    assertThat(event.get("reportingController")).isEqualTo("bamel.io/node-controller");
    assertThat(event.get("eventTime")).isNotNull();
    Map<?, ?> regarding = (Map<?, ?>) event.get("regarding");
    assertThat(regarding.get("kind")).isEqualTo("Node");
    assertThat(regarding.get("apiVersion")).isEqualTo("v1");
    assertThat(regarding.get("name")).isEqualTo("n1");
    assertThat(regarding.get("uid")).isEqualTo(uid);
    Map<?, ?> warning =
        new KubernetesSerialization().unmarshal(api.eventBodies().get(1), Map.class);
    assertThat(warning.get("type")).isEqualTo("Warning");
    assertThat(api.requests())
        .anyMatch(r -> r.startsWith("POST /apis/events.k8s.io/v1/namespaces/default/events"));
  }

  @Test
  void aServerThatNeverAnswersTimesOutAndOpensTheBreaker() throws Exception {
    ServerSocket blackHole = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    {
      List<Socket> held = new CopyOnWriteArrayList<>();
      Thread acceptor =
          Thread.ofVirtual()
              .start(
                  () -> {
                    try {
                      while (true) {
                        held.add(blackHole.accept()); // read nothing, answer nothing
                      }
                    } catch (java.io.IOException e) {
                      // closed
                    }
                  });
      KubernetesClient silent =
          new KubernetesClientBuilder()
              .withConfig(
                  new ConfigBuilder(io.fabric8.kubernetes.client.Config.empty())
                      .withMasterUrl("http://127.0.0.1:" + blackHole.getLocalPort())
                      .withRequestRetryBackoffLimit(0)
                      .withRequestTimeout(500)
                      .withConnectionTimeout(500)
                      .build())
              .withHttpClientFactory(new JdkHttpClientFactory())
              .build();
      MutableClock clock = MutableClock.of(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
      Fabric8Cluster.Options options =
          new Fabric8Cluster.Options(
              clock,
              Duration.ofMinutes(10),
              Duration.ofHours(1), // one probe at start only
              3,
              Duration.ofSeconds(5),
              Duration.ofMinutes(1),
              "test",
              Duration.ofMillis(500));
      try (Fabric8Cluster dark = new Fabric8Cluster(silent, options)) {
        try {
          assertBlackHoleHandling(dark, clock);
        } finally {
          // hung requests end now, so that closing the client does not wait for them
          blackHole.close();
          acceptor.join(1_000);
          for (Socket s : held) {
            s.close();
          }
        }
      }
    }
  }

  private static void assertBlackHoleHandling(Fabric8Cluster dark, MutableClock clock) {
    {
      {
        assertThat(dark.synced()).isFalse();
        assertThatThrownBy(() -> dark.node("n1")).isInstanceOf(ClusterUnavailableException.class);
        await().atMost(WAIT).until(() -> !dark.breakerStateFresh());
        // each call to the silent server ends (it does not hang) as unavailable
        for (int i = 0; i < 3 && dark.breakerState() != CircuitBreaker.State.OPEN; i++) {
          assertThatThrownBy(() -> dark.cordon("n1"))
              .isInstanceOf(ClusterUnavailableException.class);
        }
        assertThat(dark.breakerState()).isEqualTo(CircuitBreaker.State.OPEN);
        // while open, a call is refused without being sent: the breaker's verdict, no timeout
        assertThatThrownBy(() -> dark.evict(new PodRef("a", "b")))
            .isInstanceOf(ClusterUnavailableException.class)
            .hasMessageContaining("Kubernetes unreachable: circuit open after")
            .hasNoCause();
        clock.add(Duration.ofSeconds(5));
        assertThat(dark.reachable()).as("the half-open probe times out").isFalse();
        assertThat(dark.breakerState()).isEqualTo(CircuitBreaker.State.OPEN);
      }
    }
  }
}
