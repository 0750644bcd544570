package io.bamel.server.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.cluster.EvictionResult;
import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.threeten.extra.MutableClock;

class SimulatedClusterTest {
  private final MutableClock clock =
      MutableClock.of(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
  private final Set<String> on = new HashSet<>();

  private SimulatedCluster cluster(int maxPods) {
    Map<String, BigDecimal> cap = Map.of("cpu", BigDecimal.valueOf(16));
    List<SimulatedCluster.Machine> machines =
        List.of(
            new SimulatedCluster.Machine("m1", "general", cap, on::contains),
            new SimulatedCluster.Machine("m2", "general", cap, on::contains));
    LoadProfile load =
        new LoadProfile(
            "general",
            maxPods,
            maxPods,
            Duration.ofMinutes(2),
            Map.of("cpu", BigDecimal.valueOf(8)));
    return new SimulatedCluster(clock, Duration.ofSeconds(3), machines, List.of(load));
  }

  @Test
  void aMachineSwitchedOnJoinsAfterTheDelayAndTakesPendingPods() {
    SimulatedCluster c = cluster(2);
    c.tick();
    assertThat(c.nodes()).isEmpty();
    assertThat(c.pods()).hasSize(2).allMatch(KubePod::unschedulable);

    on.add("m1");
    c.tick();
    assertThat(c.nodes()).singleElement().satisfies(n -> assertThat(n.ready()).isFalse());
    clock.add(Duration.ofSeconds(3));
    c.tick();
    assertThat(c.node("m1")).get().extracting(KubeNode::ready).isEqualTo(true);
    assertThat(c.podsOn("m1")).hasSize(2);
    assertThat(c.podCounts("general")).containsExactly(2, 0);
  }

  @Test
  void podsThatDoNotFitStayPendingAndCordonedNodesTakeNone() {
    SimulatedCluster c = cluster(3);
    on.add("m1");
    on.add("m2");
    c.tick();
    clock.add(Duration.ofSeconds(5));
    c.cordon("m2");
    c.tick();
    assertThat(c.podCounts("general")).containsExactly(2, 1);
    c.uncordon("m2");
    c.tick();
    assertThat(c.podCounts("general")).containsExactly(3, 0);
  }

  @Test
  void evictionRecreatesThePodAndPowerOffDropsTheNode() {
    SimulatedCluster c = cluster(1);
    on.add("m1");
    c.tick();
    clock.add(Duration.ofSeconds(5));
    c.tick();
    KubePod pod = c.podsOn("m1").get(0);
    c.cordon("m1");
    assertThat(c.evict(pod.ref()).outcome()).isEqualTo(EvictionResult.Status.EVICTED);
    assertThat(c.evict(pod.ref()).outcome()).isEqualTo(EvictionResult.Status.GONE);
    c.tick();
    assertThat(c.podsOn("m1")).isEmpty();
    assertThat(c.podCounts("general")).containsExactly(0, 1);
    on.remove("m1");
    c.tick();
    assertThat(c.nodes()).isEmpty();
    assertThat(c.evictions()).isEqualTo(1);
  }

  @Test
  void loadRisesAndFallsOverItsPeriod() {
    LoadProfile p = new LoadProfile("g", 2, 10, Duration.ofSeconds(100), Map.of());
    assertThat(p.podsAt(Duration.ZERO)).isEqualTo(2);
    assertThat(p.podsAt(Duration.ofSeconds(50))).isEqualTo(10);
    assertThat(p.podsAt(Duration.ofSeconds(25))).isEqualTo(6);
    assertThat(p.podsAt(Duration.ofSeconds(100))).isEqualTo(2);
  }
}
