package io.bamel.pool;

import static io.bamel.pool.Fleet.off;
import static io.bamel.pool.Fleet.ready;
import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.pool.Fleet.M;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NodeSelectorTest {

  private static final List<String> CPU_MEM = List.of("cpu", "memory");

  private static List<String> ids(List<Member> members) {
    return members.stream().map(Member::id).toList();
  }

  /** CPU pressure in a busy pool that schedules on cpu and memory. */
  private static final Demand CPU_PRESSURE = Demand.ofPressure("cpu", CPU_MEM);

  /** Eight cores and two GPUs a pod, pending, in a pool whose nodes have 48 cores and 2 GPUs. */
  private static final Demand GPU_DEMAND =
      Demand.ofPending(
          List.of(Fleet.pod("train", "cpu", 8, "gpu", 2)), Resources.of("cpu", 48, "gpu", 2));

  /**
   * One power-on choice, built from its name and candidates: unless told, for CPU pressure and
   * beside no active node; {@link #picks} names the nodes it must choose, in order (and so how
   * many).
   */
  private static final class PowerOn {
    private final String name;
    private List<Member> candidates = List.of();
    private Demand demand = CPU_PRESSURE;
    private List<Member> active = List.of();
    private List<String> expected = List.of();

    private PowerOn(String name) {
      this.name = name;
    }

    static PowerOn named(String name) {
      return new PowerOn(name);
    }

    PowerOn from(M... candidates) {
      this.candidates = Stream.of(candidates).map(M::build).toList();
      return this;
    }

    PowerOn forDemand(Demand demand) {
      this.demand = demand;
      return this;
    }

    PowerOn beside(M... active) {
      this.active = Stream.of(active).map(M::build).toList();
      return this;
    }

    PowerOn picks(String... ids) {
      this.expected = List.of(ids);
      return this;
    }

    List<String> chosen() {
      return ids(NodeSelector.powerOn(candidates, demand, active, expected.size()));
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<PowerOn> powerOnChoices() {
    return Stream.of(
        PowerOn.named("a GPU demand picks a GPU node")
            .from(
                off("cpu-big").cap("cpu", 64, "memory", 512),
                off("gpu-1").cap("cpu", 32, "memory", 256, "gpu", 4))
            .forDemand(GPU_DEMAND)
            .picks("gpu-1"),
        PowerOn.named("a CPU demand avoids wasting a GPU node")
            .from(
                off("gpu-1").cap("cpu", 32, "memory", 256, "gpu", 4),
                off("cpu-1").cap("cpu", 32, "memory", 256))
            .forDemand(
                Demand.ofPending(List.of(Fleet.pod("web", "cpu", 8)), Resources.of("cpu", 32)))
            .picks("cpu-1"),
        PowerOn.named("closest to what is needed wins among nodes that cover")
            .from(
                off("huge").cap("cpu", 128, "memory", 1024),
                off("right").cap("cpu", 16, "memory", 64),
                off("small").cap("cpu", 4, "memory", 16))
            .forDemand(
                Demand.ofPending(
                    List.of(Fleet.pod("p", "cpu", 12, "memory", 48)),
                    Resources.of("cpu", 48, "memory", 360)))
            .picks("right"),
        PowerOn.named("spreads across racks with fewest active nodes")
            .from(
                off("a").rack("r1"), off("b").rack("r2"), off("c").rack("r3"), off("d").rack("r3"))
            .beside(ready("x").rack("r1"), ready("y").rack("r1"), ready("z").rack("r2"))
            .picks("c", "b", "d"),
        PowerOn.named("prefers nodes with fewer recent failures")
            .from(off("a").failures(3), off("b").failures(1), off("c").failures(2))
            .picks("b", "c", "a"),
        PowerOn.named("a busy pool does not waste a GPU node on CPU pressure")
            .from(
                off("gpu-1").cap("cpu", 32, "memory", 128, "gpu", 4),
                off("plain").cap("cpu", 32, "memory", 128))
            .picks("plain"),
        PowerOn.named("rack spread comes before failures")
            .from(off("a").rack("r1"), off("b").rack("r2").failures(2))
            .beside(ready("x").rack("r1"))
            .picks("b"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("powerOnChoices")
  void powerOnChooses(PowerOn choice) {
    assertThat(choice.chosen()).containsExactlyElementsOf(choice.expected);
  }

  @Test
  void aPendingGpuPodIsGpuPressure() {
    assertThat(GPU_DEMAND.pressure()).isEqualTo("gpu");
  }

  @Test
  void tiesAreBrokenByIdSoTheChoiceIsDeterministic() {
    List<Member> candidates = List.of(off("n3").build(), off("n1").build(), off("n2").build());
    assertThat(ids(NodeSelector.powerOn(candidates, CPU_PRESSURE, List.of(), 2)))
        .containsExactly("n1", "n2");
    assertThat(
            ids(
                NodeSelector.powerOn(
                    List.copyOf(candidates.reversed()), CPU_PRESSURE, List.of(), 2)))
        .containsExactly("n1", "n2");
  }

  @Test
  void aBusyPoolScoresThePressureResourceAndAQuarterOfTheOthers() {
    Member lean = off("lean").cap("cpu", 32, "memory", 128).build();
    Member roomy = off("roomy").cap("cpu", 32, "memory", 512).build();
    Member cpuBig = off("cpu-big").cap("cpu", 64, "memory", 128).build();
    Resources max = Resources.of("cpu", 64, "memory", 512);
    Demand cpu = CPU_PRESSURE;
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
    assertThat(ids(NodeSelector.powerOn(candidates, CPU_PRESSURE, active, 1)))
        .containsExactly("fits-in-busy-rack");
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
