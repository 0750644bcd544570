package io.bamel.pool.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Invariants of a whole comparison on an 8-hour generated workload (seeded, so exact). */
class ComparisonTest {

  static Fleet fleet;
  static Workload workload;
  static Comparison run;

  @BeforeAll
  static void runEightHours() {
    PodTrace trace = WorkloadGenerator.alibabaGpuV2023().generate(Duration.ofHours(8), 7);
    fleet = Fleet.sizedFor(trace);
    workload = Workload.of(trace, fleet);
    run =
        Comparison.run(fleet, workload, Simulator.Settings.DEFAULTS, Comparison.defaultPolicies());
  }

  @Test
  void theDefaultFleetIsOneCpuPoolForATraceWithoutGpus() {
    assertThat(fleet.pools()).extracting(FleetPool::name).containsExactly("cpu");
    assertThat(fleet.pool("cpu").cores()).isGreaterThanOrEqualTo(Fleet.CPU_CORES);
    assertThat(workload.unplaceable()).isEmpty();
  }

  @Test
  void theOracleIsTheBaselineAndNeverMakesAPodWait() {
    PolicyResult oracle = run.result(Oracle.NAME);
    assertThat(oracle.energyVsOracle()).isEqualTo(1.0);
    assertThat(oracle.waitMaxSeconds()).isZero();
    assertThat(oracle.pendingAtEnd()).isZero();
    assertThat(oracle.energyKWh()).isPositive();
  }

  @Test
  void alwaysOnAddsNoWaitAndCostsTheMost() {
    PolicyResult on = run.result("always-on");
    assertThat(on.waitMaxSeconds()).isZero();
    assertThat(on.powerOnsPerServerDay()).isZero();
    for (PolicyResult r : run.results()) {
      assertThat(r.energyKWh()).isLessThanOrEqualTo(on.energyKWh());
    }
  }

  @Test
  void theOracleUsesTheLeastEnergyOfThePoliciesThatAddNoWait() {
    double oracle = run.result(Oracle.NAME).energyKWh();
    for (PolicyResult r : run.results()) {
      if (r.waitMaxSeconds() == 0) {
        assertThat(r.energyKWh()).as(r.policy()).isGreaterThanOrEqualTo(oracle);
      }
    }
  }

  @Test
  void bamelSwitchesServersThroughThePoolControllersDecisions() {
    PolicyResult bamel = run.result("bamel");
    assertThat(bamel.powerOns()).isPositive();
    assertThat(bamel.energyKWh()).isLessThan(run.result("always-on").energyKWh());
    assertThat(bamel.pendingAtEnd()).isZero();
  }

  @Test
  void everyPolicyReplaysEveryPodAndRecordsItsSeries() {
    long seconds = (workload.end() - workload.start() + 9) / 10 * 10;
    for (PolicyResult r : run.results()) {
      assertThat(r.pods()).isEqualTo(workload.pods().size());
      assertThat(r.series().size()).isEqualTo((int) (seconds / 60) + 1);
      assertThat(r.series().requestedCpu()[0]).isPositive();
    }
  }

  @Test
  void bamelsVariantsDecideWithTheirOwnConfigs() {
    Comparison v =
        Comparison.run(fleet, workload, Simulator.Settings.DEFAULTS, Comparison.bamelVariants());
    assertThat(v.results())
        .extracting(PolicyResult::policy)
        .doesNotHaveDuplicates()
        .hasSize(1 + Comparison.bamelVariants().size())
        .allMatch(name -> name.equals(Oracle.NAME) || name.startsWith("bamel "));
    // Less headroom keeps fewer servers on: the variant's thresholds reached the policy.
    assertThat(v.result("bamel 0.90/0.80").energyKWh()).isLessThan(run.result("bamel").energyKWh());
    for (PolicyResult r : v.results()) {
      assertThat(r.pods()).as(r.policy()).isEqualTo(workload.pods().size());
    }
    assertThat(v.table()).contains("bamel 0.90/0.80 +trend");
  }

  @Test
  void aRunIsDeterministic() {
    Simulator sim = new Simulator(fleet, workload, Simulator.Settings.DEFAULTS);
    PolicyResult again =
        sim.run(new BamelAutoscaler()).against(run.result(Oracle.NAME).energyKWh());
    PolicyResult first = run.result("bamel");
    assertThat(again.energyKWh()).isEqualTo(first.energyKWh());
    assertThat(again.waitP99Seconds()).isEqualTo(first.waitP99Seconds());
    assertThat(again.powerOns()).isEqualTo(first.powerOns());
  }

  @Test
  void aPodNoPoolCanHoldIsCountedAndNeverWaitedOn() {
    PodTrace trace =
        new PodTrace(
            List.of(
                PodRecord.of("small", 0, OptionalLong.of(600), 8000, 8192, 0),
                PodRecord.of("huge", 60, OptionalLong.of(600), 200_000, 8192, 0),
                PodRecord.of("late", 120, OptionalLong.of(900), 8000, 8192, 0)));
    Fleet small = new Fleet(List.of(FleetPool.of("cpu", 2, 64, 512, 0)));
    Workload w = Workload.of(trace, small);
    assertThat(w.unplaceable()).containsExactly("huge");
    Comparison c =
        Comparison.run(small, w, Simulator.Settings.DEFAULTS, Comparison.defaultPolicies());
    for (PolicyResult r : c.results()) {
      assertThat(r.unplaceablePods()).isEqualTo(1);
      assertThat(r.pendingAtEnd()).as(r.policy()).isZero();
      assertThat(r.pods()).isEqualTo(2);
    }
  }
}
