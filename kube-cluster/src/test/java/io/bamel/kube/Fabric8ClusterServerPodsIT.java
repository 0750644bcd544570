package io.bamel.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.cluster.ClusterUnavailableException;
import io.bamel.inventory.cluster.EvictionResult;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.PodRef;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Fabric8Cluster#serverPodsOn}: the pods of one node as the API server lists them, against
 * the fabric8 mock API server, while the informers' watches deliver nothing ({@code
 * KubeApiServer.cutWatches}): the cache then lags the server as it does when its watch is cut just
 * before an outage, and only the request sees what was created meanwhile.
 */
class Fabric8ClusterServerPodsIT extends Fabric8ClusterTests {

  @Test
  void theServersListHasThePodsTheCutWatchNeverDelivered() {
    kube.nodes().resource(node("n1", true)).create();
    kube.pods()
        .resource(pod("web-0", "n1", "web").owner("ReplicaSet", "rs", "u0").build())
        .create();
    await().atMost(WAIT).until(() -> names(cluster.podsOn("n1")).equals(List.of("apps/web-0")));

    api.cutWatches(true);
    kube.pods()
        .resource(pod("late-1", "n1", "late").owner("ReplicaSet", "rs", "u1").build())
        .create();
    kube.pods().resource(pod("ds-1", "n1", "ds").owner("DaemonSet", "ds", "u2").build()).create();
    kube.pods()
        .resource(pod("other-1", "n2", "web").owner("ReplicaSet", "rs", "u3").build())
        .create();

    // the watches answer, delivering nothing: the cache is synced and behind the server
    await()
        .during(Duration.ofMillis(500))
        .atMost(WAIT)
        .until(() -> cluster.synced() && names(cluster.podsOn("n1")).equals(List.of("apps/web-0")));
    List<KubePod> listed = cluster.serverPodsOn("n1");
    assertThat(names(listed))
        .as("n1's pods at the server, not n2's")
        .containsExactly("apps/ds-1", "apps/late-1", "apps/web-0");
    assertThat(listed)
        .as("mapped as the informer maps its pods: a DaemonSet pod is no workload")
        .filteredOn(KubePod::workload)
        .extracting(p -> p.ref().toString())
        .containsExactlyInAnyOrder("apps/late-1", "apps/web-0");
    assertThat(api.requests())
        .as("one list by field selector, as kubectl drain lists")
        .filteredOn(r -> r.startsWith("GET /api/v1/pods?") && r.contains("spec.nodeName"))
        .hasSize(1)
        .allSatisfy(r -> assertThat(r).contains("fieldSelector=spec.nodeName%3Dn1"));

    // a pod found that way is evicted like any other, and the next list no longer has it
    assertThat(cluster.evict(new PodRef("apps", "late-1")).outcome())
        .isEqualTo(EvictionResult.Status.EVICTED);
    assertThat(names(cluster.serverPodsOn("n1"))).containsExactly("apps/ds-1", "apps/web-0");

    // the watch resumes: the cache catches up with the server
    api.cutWatches(false);
    await()
        .atMost(WAIT)
        .until(() -> names(cluster.podsOn("n1")).equals(List.of("apps/ds-1", "apps/web-0")));
  }

  @Test
  void aListTheServerDoesNotAnswerIsUnavailableNeverEmpty() {
    kube.nodes().resource(node("n1", true)).create();
    kube.pods().resource(pod("web-0", "n1", "web").build()).create();
    await().atMost(WAIT).until(() -> cluster.podsOn("n1").size() == 1);

    api.failNodePodLists(true);
    assertThatThrownBy(() -> cluster.serverPodsOn("n1"))
        .isInstanceOf(ClusterUnavailableException.class)
        .hasMessageContaining("listing pods on n1 from the API server");
    api.failNodePodLists(false);

    api.unreachable(true);
    assertThatThrownBy(() -> cluster.serverPodsOn("n1"))
        .isInstanceOf(ClusterUnavailableException.class);
    api.unreachable(false);
    // The failures above may have left the circuit breaker open (it opens after three failed
    // calls in a row); the list comes back once its next probe, within WAIT, finds the server.
    await()
        .atMost(WAIT)
        .ignoreException(ClusterUnavailableException.class)
        .untilAsserted(() -> assertThat(names(cluster.serverPodsOn("n1"))).hasSize(1));
  }

  private static List<String> names(List<KubePod> pods) {
    return pods.stream().map(p -> p.ref().toString()).sorted().toList();
  }
}
