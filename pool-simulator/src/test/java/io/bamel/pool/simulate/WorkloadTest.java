package io.bamel.pool.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The replay rules for pods the trace never scheduled, pods alive at the end, GPU pods. */
class WorkloadTest {

  static final Fleet FLEET =
      new Fleet(List.of(FleetPool.of("cpu", 2, 64, 512, 0), FleetPool.of("gpu", 1, 96, 1024, 8)));

  @Test
  void aPodStartsAtItsScheduledTimeAndRunsToItsDeletion() {
    PodRecord p =
        PodRecord.of("a", 100, OptionalLong.of(700), 4000, 1024, 0)
            .withScheduled(OptionalLong.of(160));
    Workload w = Workload.of(new PodTrace(List.of(p)), FLEET);
    assertThat(w.pods())
        .singleElement()
        .satisfies(
            pod -> {
              assertThat(pod.start()).isEqualTo(160);
              assertThat(pod.run()).isEqualTo(540);
              assertThat(pod.pool()).isEqualTo("cpu");
            });
  }

  @Test
  void aPodNeverScheduledIsDemandFromItsCreationAndOneAliveAtTheEndRunsToIt() {
    PodTrace trace =
        new PodTrace(
            List.of(
                PodRecord.of("never", 0, OptionalLong.of(50), 1000, 10, 0)
                    .withScheduled(OptionalLong.empty()),
                PodRecord.of("alive", 10, OptionalLong.empty(), 1000, 10, 0),
                PodRecord.of("ends", 20, OptionalLong.of(1000), 1000, 10, 0)));
    Workload w = Workload.of(trace, FLEET);
    assertThat(w.neverScheduled()).isEqualTo(1);
    assertThat(w.pods()).extracting(Workload.Pod::name).containsExactly("never", "alive", "ends");
    assertThat(w.pods().getFirst().start()).isZero();
    assertThat(w.pods().getFirst().run()).isEqualTo(50);
    assertThat(w.pods().get(1).run()).isEqualTo(1000 - 10);
  }

  @Test
  void gpuPodsGoToTheGpuPoolAndCpuPodsPreferTheCpuPool() {
    PodTrace trace =
        new PodTrace(
            List.of(
                PodRecord.of("g", 0, OptionalLong.of(50), 8000, 10, 2000),
                PodRecord.of("c", 0, OptionalLong.of(50), 8000, 10, 0),
                PodRecord.of("wide", 0, OptionalLong.of(50), 80_000, 10, 0)));
    Workload w = Workload.of(trace, FLEET);
    assertThat(w.pods())
        .extracting(Workload.Pod::name, Workload.Pod::pool)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("g", "gpu"),
            org.assertj.core.groups.Tuple.tuple("c", "cpu"),
            org.assertj.core.groups.Tuple.tuple("wide", "gpu"));
  }

  @Test
  void theDefaultFleetAddsAGpuPoolOnlyForATraceThatAsksForGpus() {
    PodTrace cpu = new PodTrace(List.of(PodRecord.of("c", 0, OptionalLong.of(50), 8000, 10, 0)));
    PodTrace gpu =
        new PodTrace(
            List.of(
                PodRecord.of("c", 0, OptionalLong.of(50), 8000, 10, 0),
                PodRecord.of("g", 0, OptionalLong.of(50), 8000, 10, 4000)));
    assertThat(Fleet.sizedFor(cpu).pools()).extracting(FleetPool::name).containsExactly("cpu");
    assertThat(Fleet.sizedFor(gpu).pools())
        .extracting(FleetPool::name)
        .containsExactly("cpu", "gpu");
    assertThat(Fleet.sizedFor(gpu).pool("gpu").servers()).isEqualTo(2); // ceil(0.5 x 1.25) + 1
  }
}
