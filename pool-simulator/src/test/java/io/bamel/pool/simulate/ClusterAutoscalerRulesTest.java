package io.bamel.pool.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** cluster-autoscaler's documented rules, each in one situation. */
class ClusterAutoscalerRulesTest {

  @Test
  void pendingPodsOpenTheServersFirstFitDecreasingNeeds() {
    SimFixtures c = new SimFixtures(4).pending(20).pending(40).pending(40);
    var d = new ClusterAutoscalerRules().decide(c.at(100));
    assertThat(d.powerOn()).containsExactly("cpu-000", "cpu-001");
    assertThat(d.powerOff()).isEmpty();
  }

  @Test
  void serversOnTheirWayCountBeforeOpeningMore() {
    SimFixtures c = new SimFixtures(4).booting(0, 90).pending(40).pending(20);
    assertThat(new ClusterAutoscalerRules().decide(c.at(100)).powerOn()).isEmpty();
    c.pending(40);
    assertThat(new ClusterAutoscalerRules().decide(c.at(100)).powerOn()).containsExactly("cpu-001");
  }

  @Test
  void anUnderutilizedServerGoesAfterTheUnneededTimeWhenItsPodsCanMove() {
    SimFixtures c = new SimFixtures(2).ready(0, 0).ready(1, 0).pod(0, 10, 0).pod(1, 40, 0);
    ClusterAutoscalerRules ca = new ClusterAutoscalerRules();
    assertThat(ca.decide(c.at(1000)).powerOff()).isEmpty(); // unneeded from now
    assertThat(ca.decide(c.at(1590)).powerOff()).isEmpty();
    assertThat(ca.decide(c.at(1600)).powerOff()).containsExactly("cpu-000");
  }

  @Test
  void aServerAtOrAboveTheThresholdStays() {
    SimFixtures c = new SimFixtures(2).ready(0, 0).ready(1, 0).pod(0, 32, 0).pod(1, 20, 0);
    ClusterAutoscalerRules ca = new ClusterAutoscalerRules();
    ca.decide(c.at(0));
    // cpu-000 at 0.5 is not below the threshold; cpu-001 at 0.31 is, and its pods fit on cpu-000.
    assertThat(ca.decide(c.at(600)).powerOff()).containsExactly("cpu-001");
  }

  @Test
  void aServerWhosePodsFitNowhereElseStays() {
    SimFixtures c = new SimFixtures(2).ready(0, 0).ready(1, 0).pod(0, 29, 0).pod(1, 40, 0);
    ClusterAutoscalerRules ca = new ClusterAutoscalerRules();
    ca.decide(c.at(0));
    assertThat(ca.decide(c.at(700)).powerOff()).isEmpty();
  }

  @Test
  void noScaleDownWithinTheDelayAfterAScaleUp() {
    SimFixtures c = new SimFixtures(3).ready(0, 0).ready(1, 0).pod(1, 40, 0).pending(60);
    ClusterAutoscalerRules ca = new ClusterAutoscalerRules();
    assertThat(ca.decide(c.at(0)).powerOn()).containsExactly("cpu-002");
    c.pending.clear();
    assertThat(ca.decide(c.at(599)).powerOff()).isEmpty(); // cpu-000 empty, unneeded 10 min
    assertThat(ca.decide(c.at(600)).powerOff()).containsExactly("cpu-000");
  }

  @Test
  void emptyServersGoTogether() {
    SimFixtures c = new SimFixtures(4).ready(0, 0).ready(1, 0).ready(2, 0).ready(3, 0);
    c.pod(3, 50, 0);
    ClusterAutoscalerRules ca = new ClusterAutoscalerRules();
    ca.decide(c.at(0));
    assertThat(ca.decide(c.at(600)).powerOff()).containsExactly("cpu-000", "cpu-001", "cpu-002");
  }
}
