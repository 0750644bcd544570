package io.bamel.pool.simulate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ComparisonTest {

  static Comparison day;

  @BeforeAll
  static void runDay() {
    PodTrace trace = WorkloadGenerator.alibabaGpuV2023().generate(Duration.ofHours(8), 7);
    Fleet fleet = Fleet.sizedFor(trace);
    day =
        Comparison.run(
            fleet,
            Workload.of(trace, fleet),
            Simulator.Settings.DEFAULTS,
            Comparison.defaultPolicies());
    System.out.println(fleet);
    System.out.println(day.table());
  }

  @Test
  void oracleIsTheBaseline() {
    assertEquals(1.0, day.result(Oracle.NAME).energyVsOracle(), 1e-12);
    assertEquals(0, day.result(Oracle.NAME).waitMaxSeconds());
  }

  @Test
  void alwaysOnNeverMakesAPodWait() {
    assertEquals(0, day.result("always-on").waitMaxSeconds());
    assertTrue(day.result("always-on").energyKWh() > day.result(Oracle.NAME).energyKWh());
  }
}
