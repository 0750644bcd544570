package io.bamel.pool.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** kproximate's documented rules, each in one situation. */
class KproximateRulesTest {

  @Test
  void scalesUpByTheSummedRequestsOfUnschedulablePods() {
    // 3 x 40 cores = 120 cores: two 64-core servers by the sum (first-fit would need three).
    SimFixtures c = new SimFixtures(4).pending(40).pending(40).pending(40);
    assertThat(new KproximateRules().decide(c.at(10)).powerOn())
        .containsExactly("cpu-000", "cpu-001");
  }

  @Test
  void serversOnTheirWaySatisfyPartOfTheRequests() {
    SimFixtures c = new SimFixtures(4).booting(0, 0).pending(40).pending(40);
    assertThat(new KproximateRules().decide(c.at(10)).powerOn()).containsExactly("cpu-001");
  }

  @Test
  void removesTheLeastAllocatedServerWhenNMinusOneHoldTheLoadWithHeadroom() {
    // 100 cores on 3 servers: 2 x 64 x 0.8 = 102.4 >= 100.
    SimFixtures c =
        new SimFixtures(3).ready(0, 0).ready(1, 0).ready(2, 0).pod(0, 50, 0).pod(1, 20, 0);
    c.pod(2, 30, 0);
    assertThat(new KproximateRules().decide(c.at(200)).powerOff()).containsExactly("cpu-001");
  }

  @Test
  void keepsEveryServerWhenTheHeadroomWouldBeEatenInto() {
    SimFixtures c =
        new SimFixtures(3).ready(0, 0).ready(1, 0).ready(2, 0).pod(0, 50, 0).pod(1, 25, 0);
    c.pod(2, 30, 0); // 105 cores > 102.4
    assertThat(new KproximateRules().decide(c.at(200)).powerOff()).isEmpty();
  }

  @Test
  void neverScalesDownWhileScalingOrWithinTheGraceAfterCreation() {
    SimFixtures c = new SimFixtures(3).ready(0, 0).ready(1, 0).booting(2, 100).pod(0, 10, 0);
    assertThat(new KproximateRules().decide(c.at(200)).powerOff()).isEmpty();
    SimFixtures young = new SimFixtures(2).ready(0, 0).ready(1, 150).pod(0, 10, 0);
    // cpu-001 became Ready 50 s ago: only cpu-000 is old enough, and it is the busier one.
    assertThat(new KproximateRules().decide(young.at(200)).powerOff()).containsExactly("cpu-000");
  }

  @Test
  void decidesOncePerPollInterval() {
    KproximateRules slow =
        new KproximateRules(
            new KproximateRules.Settings(
                0.2, java.time.Duration.ofSeconds(120), java.time.Duration.ofSeconds(60)));
    SimFixtures c = new SimFixtures(4).pending(40);
    assertThat(slow.decide(c.at(10)).powerOn()).containsExactly("cpu-000");
    // the pod still waits, but the next poll is 60 s after the last one
    assertThat(slow.decide(c.at(20)).powerOn()).isEmpty();
    assertThat(slow.decide(c.at(60)).powerOn()).isEmpty();
    assertThat(slow.decide(c.at(70)).powerOn()).containsExactly("cpu-000");
    // the default polls every 10 s: every step
    KproximateRules fast = new KproximateRules();
    assertThat(fast.decide(c.at(10)).powerOn()).containsExactly("cpu-000");
    assertThat(fast.decide(c.at(20)).powerOn()).containsExactly("cpu-000");
  }
}
