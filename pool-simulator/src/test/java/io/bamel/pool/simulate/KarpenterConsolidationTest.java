package io.bamel.pool.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Karpenter's consolidation (WhenEmptyOrUnderutilized) rules, each in one situation. */
class KarpenterConsolidationTest {

  @Test
  void pendingPodsLaunchServers() {
    SimFixtures c = new SimFixtures(3).pending(50).pending(50);
    assertThat(new KarpenterConsolidation().decide(c.at(10)).powerOn())
        .containsExactly("cpu-000", "cpu-001");
  }

  @Test
  void anEmptyServerGoesAtOnceWithConsolidateAfterZero() {
    SimFixtures c = new SimFixtures(2).ready(0, 0).ready(1, 0).pod(1, 10, 0);
    assertThat(new KarpenterConsolidation().decide(c.at(10)).powerOff()).containsExactly("cpu-000");
  }

  @Test
  void consolidateAfterWaitsForTheLastPodChange() {
    SimFixtures c = new SimFixtures(2).ready(0, 0).ready(1, 0).pod(0, 10, 100).pod(1, 40, 100);
    KarpenterConsolidation k =
        new KarpenterConsolidation(new KarpenterConsolidation.Settings(Duration.ofMinutes(5), 0.1));
    assertThat(k.decide(c.at(399)).powerOff()).isEmpty();
    assertThat(k.decide(c.at(400)).powerOff()).containsExactly("cpu-000");
  }

  @Test
  void anyServerWhosePodsScheduleElsewhereGoesWithoutAThreshold() {
    // 38 and 20 cores: cpu-001 (fewer cores, the lower disruption cost) fits in cpu-000's room.
    SimFixtures c = new SimFixtures(2).ready(0, 0).ready(1, 0).pod(0, 38, 0).pod(1, 20, 0);
    assertThat(new KarpenterConsolidation().decide(c.at(10)).powerOff()).containsExactly("cpu-001");
  }

  @Test
  void nothingGoesWhilePodsArePendingOrServersLaunch() {
    SimFixtures c = new SimFixtures(3).ready(0, 0).ready(1, 0).pod(1, 10, 0).booting(2, 5);
    assertThat(new KarpenterConsolidation().decide(c.at(10)).powerOff()).isEmpty();
  }

  @Test
  void theBudgetLimitsEmptyServersDisruptedAtOnce() {
    SimFixtures c = new SimFixtures(20);
    for (int i = 0; i < 20; i++) {
      c.ready(i, 0);
    }
    assertThat(new KarpenterConsolidation().decide(c.at(10)).powerOff()).hasSize(2);
  }
}
