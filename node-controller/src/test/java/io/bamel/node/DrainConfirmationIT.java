package io.bamel.node;

import static io.bamel.inventory.model.NodeState.DRAINING;
import static io.bamel.inventory.model.NodeState.ERROR;
import static io.bamel.inventory.model.NodeState.OFF;
import static io.bamel.inventory.model.NodeState.POWERING_OFF;
import static io.bamel.inventory.model.NodeState.READY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeState;
import io.bamel.kube.testing.KubeObjects;
import io.bamel.power.BmcPowerState;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A drain is declared done on the API server's own list of the node's pods, not on the watched
 * cache alone: real etcd, the simulated Redfish fleet, the fabric8 mock API server whose watches
 * can be cut ({@code KubeApiServer.cutWatches}: the informers stay synced and deliver nothing, as
 * when a watch is cut just before an API outage) and whose lists by node can fail on their own.
 */
class DrainConfirmationIT extends TestSiteTests {

  /** A running pod of ReplicaSet {@code rs} in {@code apps} on {@code node}, labelled. */
  void addWorkload(String node, String name, Map<String, String> labels) {
    site.kube
        .pods()
        .resource(
            KubeObjects.pod(name)
                .labels(labels)
                .owner("ReplicaSet", "rs", "u-" + name)
                .onNode(node)
                .build())
        .create();
  }

  /** Requests that listed the pods on {@code node} by field selector. */
  long serverLists(String node) {
    return site.api.requests().stream()
        .filter(r -> r.startsWith("GET /api/v1/pods?"))
        .filter(r -> r.contains("fieldSelector=spec.nodeName%3D" + node))
        .count();
  }

  String readyNode() throws InterruptedException {
    openKubernetesSite();
    String id = site.addNodes(1, "batch", DesiredPower.ON).get(0);
    site.controller("a");
    site.awaitState(List.of(id), READY, WAIT);
    return id;
  }

  @Test
  void aPodTheCacheNeverSawIsEvictedBeforeTheNodeIsSwitchedOff() throws Exception {
    String id = readyNode();
    site.api.cutWatches(true);
    addWorkload(id, "late-1", Map.of("app", "late"));

    site.desire(id, DesiredPower.OFF);
    site.awaitState(List.of(id), OFF, WAIT);

    assertThat(site.api.evictionBodies())
        .as("the pod only the API server listed was evicted")
        .anySatisfy(body -> assertThat(body).contains("\"name\":\"late-1\""));
    assertThat(site.kube.pods().inNamespace("apps").withName("late-1").get()).isNull();
    assertThat(serverLists(id)).as("listed again after the eviction").isGreaterThanOrEqualTo(2);
    assertThat(site.resets(id, "GracefulShutdown")).isEqualTo(1);
  }

  @Test
  void aPodTheCacheNeverSawHoldsTheDrainWhileItCannotBeEvicted() throws Exception {
    String id = readyNode();
    site.api.cutWatches(true);
    addWorkload(id, "late-1", Map.of("app", "late"));
    site.kube
        .resource(KubeObjects.disruptionBudget("late-budget", Map.of("app", "late"), 1))
        .create();

    site.desire(id, DesiredPower.OFF);
    site.awaitState(List.of(id), ERROR, WAIT);
    assertThat(site.node(id).status().lastError())
        .contains("drain did not finish")
        .contains("apps/late-1")
        .contains("PodDisruptionBudget");
    assertThat(site.fleet.system(id).powerState()).isEqualTo(BmcPowerState.ON);
    assertThat(site.resets(id, "GracefulShutdown") + site.resets(id, "ForceOff")).isZero();
    assertThat(site.api.refusedEvictions()).isPositive();

    // the budget goes and the watch resumes: the drain goes on to the end
    site.kube
        .policy()
        .v1()
        .podDisruptionBudget()
        .inNamespace("apps")
        .withName("late-budget")
        .delete();
    site.api.cutWatches(false);
    site.awaitState(List.of(id), OFF, WAIT);
    assertThat(site.kube.pods().inNamespace("apps").withName("late-1").get()).isNull();
  }

  @Test
  void aListThatFailsKeepsTheDrainNotDone() throws Exception {
    String id = readyNode();
    site.api.failNodePodLists(true);

    site.desire(id, DesiredPower.OFF);
    site.awaitState(List.of(id), DRAINING, WAIT);
    // longer than the drain timeout (3 s): the node waits, on, and never goes to error
    await()
        .during(TestSite.TIMEOUTS.drain().plusSeconds(2))
        .atMost(WAIT)
        .until(
            () ->
                site.state(id) == DRAINING
                    && site.fleet.system(id).powerState() == BmcPowerState.ON);
    assertThat(serverLists(id)).as("the list was tried, and tried again").isGreaterThanOrEqualTo(2);
    assertThat(site.resets(id, "GracefulShutdown") + site.resets(id, "ForceOff")).isZero();

    site.api.failNodePodLists(false);
    site.awaitState(List.of(id), OFF, WAIT);
    assertThat(transitions(id)).doesNotContain(ERROR).containsSubsequence(DRAINING, POWERING_OFF);
  }

  @Test
  void anOrdinaryDrainListsTheServerOnceAtItsEnd() throws Exception {
    String id = readyNode();
    int mark = site.api.requests().size();
    addWorkload(id, "web-1", Map.of("app", "web"));
    // the controller's pod watch answered after the creation, and watched again: its cache has it
    await()
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> {
              List<String> since = site.api.requests();
              return since.subList(mark, since.size()).stream()
                      .filter(r -> r.startsWith("GET /api/v1/pods?") && r.contains("watch=true"))
                      .count()
                  >= 2;
            });

    site.desire(id, DesiredPower.OFF);
    site.awaitState(List.of(id), OFF, WAIT);

    assertThat(site.api.evictions()).isEqualTo(1);
    assertThat(site.kube.pods().inNamespace("apps").withName("web-1").get()).isNull();
    assertThat(serverLists(id)).as("one list per drain").isEqualTo(1);
    assertThat(transitions(id)).containsSubsequence(READY, DRAINING, POWERING_OFF, OFF);
  }

  private List<NodeState> transitions(String id) {
    return site.events(id).stream()
        .filter(e -> e.to() != null && e.from() != e.to())
        .map(NodeEvent::to)
        .toList();
  }
}
