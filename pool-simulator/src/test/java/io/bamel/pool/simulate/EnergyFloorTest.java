package io.bamel.pool.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The energy floor: its value on a hand-worked trace, and that it bounds every wait-free run. */
class EnergyFloorTest {

  @Test
  void countsTheServersTheRequestsNeedAtIdleAndTheRequestedCoresAboveIt() {
    // 40 cores from 0 to 600 s, 40 more from 300 s, on 64-core servers: one server, then two.
    PodTrace trace =
        new PodTrace(
            List.of(
                PodRecord.of("a", 0, OptionalLong.of(600), 40_000, 8192, 0),
                PodRecord.of("b", 300, OptionalLong.of(600), 40_000, 8192, 0)));
    FleetPool pool = FleetPool.of("cpu", 3, 64, 512, 0);
    Fleet fleet = new Fleet(List.of(pool));
    double idle = pool.idleWatts();
    double span = pool.fullWatts() - pool.idleWatts();
    // Steps at 10 .. 290 s (29) and 300 .. 590 s (30), 10 s each.
    double joules = 29 * 10 * (idle + span * 40 / 64) + 30 * 10 * (2 * idle + span * 80 / 64);
    assertThat(EnergyFloor.kWh(fleet, Workload.of(trace, fleet), Simulator.Settings.DEFAULTS))
        .isCloseTo(joules / 3_600_000, within(1e-9));
  }

  @Test
  void boundsTheOracleAndEveryPolicyThatAddsNoWait() {
    PodTrace trace = WorkloadGenerator.alibabaGpuV2023().generate(Duration.ofHours(12), 3);
    Fleet fleet = Fleet.sizedFor(trace);
    Workload workload = Workload.of(trace, fleet);
    Comparison c =
        Comparison.run(fleet, workload, Simulator.Settings.DEFAULTS, Comparison.defaultPolicies());
    double floor = EnergyFloor.kWh(fleet, workload, Simulator.Settings.DEFAULTS);
    assertThat(floor).isPositive();
    int waitFree = 0;
    for (PolicyResult r : c.results()) {
      if (r.waitMaxSeconds() == 0) {
        waitFree++;
        assertThat(r.energyKWh()).as(r.policy()).isGreaterThanOrEqualTo(floor);
      }
    }
    // The oracle, always-on and bamel at least.
    assertThat(waitFree).isGreaterThanOrEqualTo(3);
  }
}
