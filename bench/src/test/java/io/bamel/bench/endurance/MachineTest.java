package io.bamel.bench.endurance;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.node.KubeView;
import io.bamel.power.BmcPowerState;
import java.time.Instant;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MachineTest {

  private static final Instant T = Instant.parse("2026-03-02T12:00:00Z");

  @Test
  void bootsWithinFiveMinutesOfPowerOnThenRunsPodsOnceAdmitted() {
    Machine m = new Machine("n1", false, new SplittableRandom(1));
    assertThat(m.power()).isEqualTo(BmcPowerState.OFF);
    m.powerOn(T);
    assertThat(m.power()).isEqualTo(BmcPowerState.ON);
    assertThat(m.ready(T.plusSeconds(60))).isFalse();
    assertThat(m.ready(T.plusSeconds(300))).isTrue();
    KubeView view = m.kube(T.plusSeconds(300), true);
    assertThat(view.node().unschedulable()).isTrue();
    assertThat(view.workloads()).isEmpty();
    m.label(Map.of("bamel.io/pool", "p"), true);
    assertThat(m.kube(T.plusSeconds(300), true).workloads()).hasSize(3);
  }

  @Test
  void aDrainEvictsThePodsAndAShutdownEndsAfterItsTime() {
    Machine m = new Machine("n1", true, new SplittableRandom(1));
    m.drain(T);
    m.advance(T.plus(Machine.EVICTION));
    assertThat(m.kube(T.plus(Machine.EVICTION), true).workloads()).isEmpty();
    m.powerOff(T, false);
    m.advance(T.plusSeconds(10));
    assertThat(m.power()).isEqualTo(BmcPowerState.ON);
    m.advance(T.plus(Machine.SHUTDOWN));
    assertThat(m.power()).isEqualTo(BmcPowerState.OFF);
    assertThat(m.ready(T.plus(Machine.SHUTDOWN))).isFalse();
  }

  @Test
  void readsMoreWattsUnderLoad() {
    Machine idle = new Machine("a", true, new SplittableRandom(2));
    Machine busy = new Machine("b", true, new SplittableRandom(2));
    assertThat(busy.watts(T, 0.9)).isGreaterThan(idle.watts(T, 0.1));
  }
}
