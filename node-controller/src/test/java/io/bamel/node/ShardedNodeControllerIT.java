package io.bamel.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeState;
import io.bamel.power.PowerOperation;
import io.bamel.power.sim.SimOperation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Sharded node controllers on real etcd and simulated BMCs: three replicas share a fleet by the
 * hash ring, each acting only on its own nodes, and when one is cut off from etcd the others take
 * its nodes over and finish its work, with every power-on sent exactly once.
 */
class ShardedNodeControllerIT extends TestSiteTests {

  static final Duration WAIT = Duration.ofSeconds(90);

  static final NodeControllerConfig CONFIG =
      TestSite.CONFIG
          .withConcurrency(NodeControllerConfig.DEFAULTS.workers(), 2)
          .withIntervals(Duration.ofSeconds(1), Duration.ofMillis(100));

  final List<ControllerInstance> replicas = new ArrayList<>();
  final List<CountingDriver> calls = new ArrayList<>();

  ControllerInstance replica(String name) throws InterruptedException {
    TestSite.Wrapped<CountingDriver> counted = site.countedReplica(name, CONFIG);
    replicas.add(counted.controller());
    calls.add(counted.driver());
    return counted.controller();
  }

  @Test
  void threeReplicasPowerOnSixtyNodesOnceEachAndTheSurvivorsTakeOverACutOffOnesShare()
      throws Exception {
    openSite();
    List<String> ids = site.addNodes(60, "batch", DesiredPower.OFF);
    ControllerInstance a = replica("bamel-a");
    ControllerInstance b = replica("bamel-b");
    ControllerInstance c = replica("bamel-c");
    Set<String> all = Set.of("bamel-a", "bamel-b", "bamel-c");
    await()
        .atMost(WAIT)
        .until(() -> replicas.stream().allMatch(r -> r.replicas.ring().members().equals(all)));
    site.awaitState(ids, NodeState.OFF, WAIT);
    for (String id : ids) {
      assertThat(replicas.stream().filter(r -> r.replicas.owns(id)).count())
          .as("owners of " + id)
          .isOne();
    }

    // settled: each replica reads only the BMCs of its own nodes
    // (at least three sync intervals, and until every owner's periodic sync has reached each of its
    // nodes: on a loaded machine a pass may start late, which is not what this checks)
    List<Map<String, Integer>> before = statusReads(ids);
    Thread.sleep(3 * CONFIG.syncInterval().toMillis());
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              List<Map<String, Integer>> now = statusReads(ids);
              for (String id : ids) {
                for (int r = 0; r < replicas.size(); r++) {
                  if (replicas.get(r).replicas.owns(id)) {
                    assertThat(now.get(r).get(id) - before.get(r).get(id))
                        .as("%s reads its own %s", replicas.get(r).name, id)
                        .isPositive();
                  }
                }
              }
            });
    List<Map<String, Integer>> after = statusReads(ids);
    for (String id : ids) {
      for (int r = 0; r < replicas.size(); r++) {
        if (!replicas.get(r).replicas.owns(id)) {
          int reads = after.get(r).get(id) - before.get(r).get(id);
          assertThat(reads).as("%s reads %s, not its own", replicas.get(r).name, id).isZero();
        }
      }
    }
    assertThat(a.controller.isActive() && b.controller.isActive() && c.controller.isActive())
        .isTrue();
    assertThat(a.metric("bamel_leader", "component", "node-controller")).isEqualTo(1);

    // slow BMCs, so that much is still to do when c is cut off
    ids.forEach(id -> site.fleet.system(id).faults().latency(Duration.ofMillis(200)));
    List<String> ofC = ids.stream().filter(c.replicas::owns).toList();
    ids.forEach(id -> site.desire(id, DesiredPower.ON));
    await()
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(20))
        .until(() -> ids.stream().filter(id -> site.accepted(id) > 0).count() >= 15);

    // c's etcd client goes away abruptly (as a SIGKILL or a partition): no goodbye
    long cut = System.nanoTime();
    c.client.close();
    List<String> pendingOfC = ofC.stream().filter(id -> site.accepted(id) == 0).toList();
    await()
        .atMost(WAIT)
        .until(
            () ->
                a.replicas.ring().members().equals(Set.of("bamel-a", "bamel-b"))
                    && b.replicas.ring().members().equals(Set.of("bamel-a", "bamel-b")));
    Duration handover = Duration.ofNanos(System.nanoTime() - cut);
    site.awaitState(ids, NodeState.READY, WAIT);
    System.out.printf(
        "sharded: %d of c's %d nodes pending at the cut; ring without c after %d ms%n",
        pendingOfC.size(), ofC.size(), handover.toMillis());

    assertThat(pendingOfC).as("c still had work when it was cut off").isNotEmpty();
    assertThat(handover).as("within a few lease TTLs").isLessThan(Duration.ofSeconds(10));
    for (String id : ofC) {
      assertThat(a.replicas.owns(id) ^ b.replicas.owns(id)).as("taken over: " + id).isTrue();
    }
    for (String id : ids) {
      int sent = calls.stream().mapToInt(d -> d.calls(site.address(id), PowerOperation.ON)).sum();
      assertThat(sent).as("power-on calls for " + id).isOne();
      assertThat(site.resets(id, "On")).as("power-ons accepted by " + id).isOne();
      assertThat(site.fleet.system(id).count(SimOperation.RESET_REFUSED)).isZero();
    }
  }

  /** Per replica, the power-state reads of each node so far. */
  List<Map<String, Integer>> statusReads(List<String> ids) {
    List<Map<String, Integer>> reads = new ArrayList<>();
    for (CountingDriver d : calls) {
      Map<String, Integer> m = new HashMap<>();
      ids.forEach(id -> m.put(id, d.calls(site.address(id), PowerOperation.STATUS)));
      reads.add(m);
    }
    return reads;
  }
}
