package io.bamel.pool.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.NodeState;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * A pod that a scale-down evicts counts the time it then waits as extra wait, for every policy
 * alike: the figures of consolidating policies (Karpenter's, bamel's with {@code consolidate})
 * include what their moves cost.
 */
class EvictionWaitTest {

  /** Two 64-core servers, each 240 s from power-on to Ready. */
  private final Fleet fleet = SimFixtures.cpuFleet(2, 240);

  /**
   * Every server on at the start; at 300 s it switches {@code cpu-001} off; then, while a pod of
   * the pool waits and that server is off, switches it on again.
   */
  private static final class SwitchOffThenBack implements Autoscaler {
    @Override
    public String name() {
      return "off-then-back";
    }

    @Override
    public boolean allOnAtStart() {
      return true;
    }

    @Override
    public Decision decide(ClusterState state) {
      SimServer second = state.servers().get(1);
      if (state.now() == 300) {
        return new Decision(List.of(), List.of(second.id()));
      }
      if (!state.pending().isEmpty() && second.state() == NodeState.OFF && !second.desiredOn()) {
        return new Decision(List.of(second.id()), List.of());
      }
      return Decision.NONE;
    }
  }

  @Test
  void anEvictedPodThatFindsNoRoomWaitsAShutdownAndABootAndItCounts() {
    // tiny and p fill cpu-000 to 41 of 64 cores; q (40) lands on cpu-001 and is evicted at 300 s
    PodTrace trace =
        new PodTrace(
            List.of(
                PodRecord.of("tiny", 0, OptionalLong.of(7200), 1000, 1024, 0),
                PodRecord.of("p", 10, OptionalLong.of(7200), 40_000, 1024, 0),
                PodRecord.of("q", 10, OptionalLong.of(7200), 40_000, 1024, 0)));
    Workload workload = Workload.of(trace, fleet);

    PolicyResult r =
        new Simulator(fleet, workload, Simulator.Settings.DEFAULTS).run(new SwitchOffThenBack());

    assertThat(r.evictions()).isEqualTo(1);
    // off takes the 60 s shutdown, then 240 s of boot: q waits at least 300 s (each seen at the
    // next step)
    assertThat(r.waitMaxSeconds()).isBetween(300.0, 360.0);
    assertThat(r.pendingAtEnd()).isZero();
  }
}
