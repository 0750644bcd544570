package io.bamel.pool;

import static io.bamel.pool.Fleet.off;
import static io.bamel.pool.Fleet.ready;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class NodeSelectorTest {

  private static final List<String> CPU_MEM = List.of("cpu", "memory");

  private static List<String> ids(List<Member> members) {
    return members.stream().map(Member::id).toList();
  }

  @Test
  void aGpuDemandPicksAGpuNode() {
    List<Member> candidates =
        List.of(
            off("cpu-big").cap("cpu", 64, "memory", 512).build(),
            off("gpu-1").cap("cpu", 32, "memory", 256, "gpu", 4).build());
    Demand demand =
        Demand.ofPending(
            List.of(Fleet.pod("train", "cpu", 8, "gpu", 2)), Resources.of("cpu", 48, "gpu", 2));
    assertThat(demand.pressure()).isEqualTo("gpu");
    assertThat(ids(NodeSelector.powerOn(candidates, demand, List.of(), 1)))
        .containsExactly("gpu-1");
  }

  @Test
  void aCpuDemandAvoidsWastingAGpuNode() {
    List<Member> candidates =
        List.of(
            off("gpu-1").cap("cpu", 32, "memory", 256, "gpu", 4).build(),
            off("cpu-1").cap("cpu", 32, "memory", 256).build());
    Demand demand = Demand.ofPending(List.of(Fleet.pod("web", "cpu", 8)), Resources.of("cpu", 32));
    assertThat(ids(NodeSelector.powerOn(candidates, demand, List.of(), 1)))
        .containsExactly("cpu-1");
  }

  @Test
  void closestToWhatIsNeededWinsAmongNodesThatCover() {
    List<Member> candidates =
        List.of(
            off("huge").cap("cpu", 128, "memory", 1024).build(),
            off("right").cap("cpu", 16, "memory", 64).build(),
            off("small").cap("cpu", 4, "memory", 16).build());
    Demand demand =
        Demand.ofPending(
            List.of(Fleet.pod("p", "cpu", 12, "memory", 48)),
            Resources.of("cpu", 48, "memory", 360));
    assertThat(ids(NodeSelector.powerOn(candidates, demand, List.of(), 1)))
        .containsExactly("right");
  }

  @Test
  void spreadsAcrossRacksWithFewestActiveNodes() {
    List<Member> active =
        List.of(
            ready("x").rack("r1").build(),
            ready("y").rack("r1").build(),
            ready("z").rack("r2").build());
    List<Member> candidates =
        List.of(
            off("a").rack("r1").build(),
            off("b").rack("r2").build(),
            off("c").rack("r3").build(),
            off("d").rack("r3").build());
    assertThat(ids(NodeSelector.powerOn(candidates, Demand.ofPressure("cpu", CPU_MEM), active, 3)))
        .containsExactly("c", "b", "d");
  }

  @Test
  void prefersNodesWithFewerRecentFailures() {
    List<Member> candidates =
        List.of(
            off("a").failures(3).build(),
            off("b").failures(1).build(),
            off("c").failures(2).build());
    assertThat(
            ids(NodeSelector.powerOn(candidates, Demand.ofPressure("cpu", CPU_MEM), List.of(), 3)))
        .containsExactly("b", "c", "a");
  }

  @Test
  void tiesAreBrokenByIdSoTheChoiceIsDeterministic() {
    List<Member> candidates = List.of(off("n3").build(), off("n1").build(), off("n2").build());
    assertThat(
            ids(NodeSelector.powerOn(candidates, Demand.ofPressure("cpu", CPU_MEM), List.of(), 2)))
        .containsExactly("n1", "n2");
    assertThat(
            ids(
                NodeSelector.powerOn(
                    List.copyOf(candidates.reversed()),
                    Demand.ofPressure("cpu", CPU_MEM),
                    List.of(),
                    2)))
        .containsExactly("n1", "n2");
  }

  @Test
  void aBusyPoolScoresThePressureResourceAndAQuarterOfTheOthers() {
    Member lean = off("lean").cap("cpu", 32, "memory", 128).build();
    Member roomy = off("roomy").cap("cpu", 32, "memory", 512).build();
    Member cpuBig = off("cpu-big").cap("cpu", 64, "memory", 128).build();
    Resources max = Resources.of("cpu", 64, "memory", 512);
    Demand cpu = Demand.ofPressure("cpu", CPU_MEM);
    assertThat(cpu.others()).containsExactly("memory");
    assertThat(NodeSelector.fit(lean.capacity(), cpu, max)).isEqualTo(0.5 + 0.25 * 0.25);
    assertThat(NodeSelector.fit(roomy.capacity(), cpu, max)).isEqualTo(0.5 + 0.25);
    assertThat(NodeSelector.fit(cpuBig.capacity(), cpu, max)).isEqualTo(1.0 + 0.25 * 0.25);
    // The pressure resource decides first; with it equal, more of the others wins.
    assertThat(ids(NodeSelector.powerOn(List.of(lean, roomy, cpuBig), cpu, List.of(), 3)))
        .containsExactly("cpu-big", "roomy", "lean");
    Demand memory = Demand.ofPressure("memory", CPU_MEM);
    assertThat(ids(NodeSelector.powerOn(List.of(lean, roomy, cpuBig), memory, List.of(), 3)))
        .containsExactly("roomy", "cpu-big", "lean");
  }

  @Test
  void aBusyPoolDoesNotWasteAGpuNodeOnCpuPressure() {
    List<Member> candidates =
        List.of(
            off("gpu-1").cap("cpu", 32, "memory", 128, "gpu", 4).build(),
            off("plain").cap("cpu", 32, "memory", 128).build());
    assertThat(
            ids(NodeSelector.powerOn(candidates, Demand.ofPressure("cpu", CPU_MEM), List.of(), 1)))
        .containsExactly("plain");
  }

  @Test
  void fitComesBeforeRackSpread() {
    List<Member> active = List.of(ready("x").rack("r1").build(), ready("y").rack("r1").build());
    List<Member> candidates =
        List.of(
            off("small-in-empty-rack").rack("r2").cap("cpu", 8, "memory", 32).build(),
            off("fits-in-busy-rack").rack("r1").cap("cpu", 32, "memory", 128).build());
    Demand pending =
        Demand.ofPending(
            List.of(Fleet.pod("p", "cpu", 16, "memory", 64)),
            Resources.of("cpu", 20, "memory", 80));
    assertThat(ids(NodeSelector.powerOn(candidates, pending, active, 1)))
        .containsExactly("fits-in-busy-rack");
    assertThat(ids(NodeSelector.powerOn(candidates, Demand.ofPressure("cpu", CPU_MEM), active, 1)))
        .containsExactly("fits-in-busy-rack");
  }

  @Test
  void rackSpreadComesBeforeFailures() {
    List<Member> active = List.of(ready("x").rack("r1").build());
    List<Member> candidates =
        List.of(off("a").rack("r1").build(), off("b").rack("r2").failures(2).build());
    assertThat(ids(NodeSelector.powerOn(candidates, Demand.ofPressure("cpu", CPU_MEM), active, 1)))
        .containsExactly("b");
  }

  @Test
  void powerOffPicksTheLeastUtilizedThenTheBusiestRack() {
    List<Member> members =
        List.of(
            ready("a").rack("r1").used("cpu", 16).build(),
            ready("b").rack("r1").used("cpu", 2).build(),
            ready("c").rack("r2").used("cpu", 2).build(),
            ready("d").rack("r1").build(),
            ready("e").rack("r2").build());
    assertThat(ids(NodeSelector.powerOff(members, CPU_MEM)))
        .containsExactly("d", "e", "b", "c", "a");
  }

  @Test
  void powerOffNeverPicksProtectedNodesOrNodesThatCannotBeSwitchedOff() {
    List<Member> members =
        List.of(
            ready("dnd").doNotDisrupt().build(),
            ready("pinned").unevictable().build(),
            ready("wol").noPowerOff().build(),
            ready("manual").manual().build(),
            off("already-off").build(),
            ready("ok").used("cpu", 30).build());
    assertThat(ids(NodeSelector.powerOff(members, CPU_MEM))).containsExactly("ok");
  }

  @Test
  void binPackingOpensOnlyTheNodesNeeded() {
    List<Member> candidates =
        List.of(
            off("a").cap("cpu", 16).build(),
            off("b").cap("cpu", 16).build(),
            off("c").cap("cpu", 16).build());
    BinPacking.Result r =
        BinPacking.pack(
            List.of(
                Fleet.pod("p1", "cpu", 10),
                Fleet.pod("p2", "cpu", 6),
                Fleet.pod("p3", "cpu", 9),
                Fleet.pod("p4", "cpu", 4)),
            List.of(),
            candidates,
            Resources.of("cpu", 16));
    // Decreasing: 10 -> a, 9 -> b, 6 -> a (16), 4 -> b (13).
    assertThat(ids(r.chosen())).containsExactly("a", "b");
    assertThat(r.unfit()).isEmpty();
  }

  @Test
  void binPackingSkipsCandidatesTooSmallForAPod() {
    List<Member> candidates =
        List.of(off("small").cap("cpu", 4).build(), off("big").cap("cpu", 32).build());
    BinPacking.Result r =
        BinPacking.pack(
            List.of(Fleet.pod("p", "cpu", 20)), List.of(), candidates, Resources.of("cpu", 18));
    assertThat(ids(r.chosen())).containsExactly("big");
  }
}
