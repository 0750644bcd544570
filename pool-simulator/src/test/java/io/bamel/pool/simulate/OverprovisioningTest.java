package io.bamel.pool.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.pool.Resources;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * Over-provisioning placeholders in the simulated cluster (cluster-autoscaler's FAQ pattern): they
 * keep room on that a trace pod takes at once by preemption, the autoscaler switches a server on
 * for the placeholders left waiting, and they draw no power and count in no figure.
 */
class OverprovisioningTest {

  /** Two 64-core, 512 GiB servers, each 240 s from power-on to Ready. */
  private final Fleet fleet = SimFixtures.cpuFleet(2, 240);

  /** a (30 cores) alive at the start; b (40 cores) arrives at 3600 s; both end at 7200 s. */
  private final Workload workload =
      Workload.of(
          new PodTrace(
              List.of(
                  PodRecord.of("a", 0, OptionalLong.of(7200), 30_000, 1024, 0),
                  PodRecord.of("b", 3600, OptionalLong.of(7200), 40_000, 1024, 0))),
          fleet);

  private PolicyResult run(Autoscaler a) {
    return new Simulator(fleet, workload, Simulator.Settings.DEFAULTS).run(a);
  }

  @Test
  void aPlaceholderKeepsAServerOnWhoseRoomAnArrivingPodTakesAtOnce() {
    // Without: cpu-000 has 34 cores free, b needs 40 and waits for cpu-001's boot.
    PolicyResult plain = run(new ClusterAutoscalerRules());
    assertThat(plain.waitMaxSeconds()).isGreaterThanOrEqualTo(240);

    // With one 40-core placeholder: it fits only on cpu-001, which CA switches on for it; b
    // preempts it there at once.
    Overprovisioning one = new Overprovisioning("cpu", 1, Resources.of("cpu", 40.0));
    PolicyResult headroom = run(new Variant("ca +placeholder", new ClusterAutoscalerRules(), one));
    assertThat(headroom.waitMaxSeconds()).isZero();
    assertThat(headroom.powerOns()).isEqualTo(1);
    assertThat(headroom.energyKWh()).isGreaterThan(plain.energyKWh());
    // The preempted placeholder finds no server (both are on) and waits to the end: not counted.
    assertThat(headroom.pendingAtEnd()).isZero();
    assertThat(headroom.pods()).isEqualTo(plain.pods());
    assertThat(headroom.evictions()).isZero();
  }

  @Test
  void placeholdersDrawNoPowerAndAddNoRequestedCpu() {
    Overprovisioning two = new Overprovisioning("cpu", 2, Resources.of("cpu", 16.0));
    PolicyResult plain = run(new AlwaysOn());
    PolicyResult with = run(new Variant("always-on +placeholders", new AlwaysOn(), two));
    assertThat(with.energyKWh()).isEqualTo(plain.energyKWh());
    assertThat(with.series().requestedCpu()).containsExactly(plain.series().requestedCpu());
    assertThat(with.series().pendingPods()).containsExactly(plain.series().pendingPods());
  }

  @Test
  void thePlaceholdersOfTheFleetsCpuPoolAskTheirShareOfAServersMemory() {
    Overprovisioning p = Overprovisioning.of(fleet, 3, 16);
    assertThat(p.pool()).isEqualTo("cpu");
    assertThat(p.replicas()).isEqualTo(3);
    assertThat(p.requests().get("cpu")).isEqualTo(16.0);
    assertThat(p.requests().get("memory"))
        .isEqualTo(fleet.pool("cpu").capacity().get("memory") / 4);
  }

  @Test
  void placeholdersForAPoolTheFleetLacksAreRefused() {
    Overprovisioning elsewhere = new Overprovisioning("gpu", 1, Resources.of("cpu", 1.0));
    assertThatThrownBy(() -> run(new Variant("x", new AlwaysOn(), elsewhere)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("gpu");
    assertThatThrownBy(() -> new Overprovisioning("cpu", -1, Resources.NONE))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
