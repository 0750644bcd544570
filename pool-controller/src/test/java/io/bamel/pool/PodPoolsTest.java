package io.bamel.pool;

import static io.bamel.pool.Fleet.off;
import static io.bamel.pool.Fleet.poweringOn;
import static io.bamel.pool.Fleet.ready;
import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.NodeRequirement;
import io.bamel.inventory.cluster.PodRef;
import io.bamel.inventory.model.PoolConfig;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Each pending pod is served by one pool, chosen deterministically. */
class PodPoolsTest {

  private static final Set<String> CPU_MEM = Set.of("cpu", "memory");
  private static final Resources PLAIN = Resources.of("cpu", 32, "memory", 128);
  private static final Resources GPU = Resources.of("cpu", 32, "memory", 128, "gpu", 4);

  private static PodPools.Pool pool(String name, boolean isDefault, Resources... growth) {
    return new PodPools.Pool(name, isDefault, CPU_MEM, Set.of(growth));
  }

  private static String servedBy(
      PodPlacement placement, Resources requests, PodPools.Pool... pools) {
    return PodPools.poolFor(placement, requests, PodPools.preferenceOrder(List.of(pools)));
  }

  private static PodPlacement in(String... pools) {
    return new PodPlacement(null, List.of(List.of(NodeRequirement.pool("In", pools))));
  }

  private static final Resources SMALL = Resources.of("cpu", 2);

  @Test
  void aPodSelectingOnePoolIsServedByIt() {
    assertThat(
            servedBy(
                new PodPlacement("b", null),
                SMALL,
                pool("a", true, PLAIN),
                pool("b", false, PLAIN)))
        .isEqualTo("b");
  }

  @Test
  void aPodSelectingAnUnconfiguredPoolIsServedByNone() {
    assertThat(servedBy(new PodPlacement("x", null), SMALL, pool("a", true, PLAIN))).isNull();
  }

  @Test
  void aPodSelectingNoPoolGoesToTheFirstDefaultPoolOnly() {
    PodPools.Pool a = pool("a", false, PLAIN);
    PodPools.Pool g2 = pool("general-2", true, PLAIN);
    PodPools.Pool g1 = pool("general-1", true, PLAIN);
    assertThat(servedBy(PodPlacement.ANYWHERE, SMALL, a, g2, g1)).isEqualTo("general-1");
    assertThat(servedBy(PodPlacement.ANYWHERE, SMALL, a)).as("no default pool").isNull();
    // Excluding a pool does not require one: still only default pools serve it.
    PodPlacement notGpu =
        new PodPlacement(null, List.of(List.of(NodeRequirement.pool("NotIn", "gpu"))));
    assertThat(servedBy(notGpu, SMALL, a, g2)).isEqualTo("general-2");
    assertThat(servedBy(notGpu, SMALL, a)).isNull();
  }

  @Test
  void aPodSeveralPoolsCouldTakeIsServedByOneInNameOrder() {
    assertThat(
            servedBy(
                in("zeta", "alpha"),
                SMALL,
                pool("zeta", false, PLAIN),
                pool("alpha", false, PLAIN)))
        .isEqualTo("alpha");
  }

  @Test
  void defaultPoolsComeFirst() {
    assertThat(
            servedBy(
                in("alpha", "general"),
                SMALL,
                pool("alpha", false, PLAIN),
                pool("general", true, PLAIN)))
        .isEqualTo("general");
  }

  @Test
  void thePoolMustBeAbleToGrowByANodeThatHoldsThePod() {
    Resources gpuPod = Resources.of("cpu", 4, "gpu", 1);
    assertThat(
            servedBy(
                in("batch", "train"),
                gpuPod,
                pool("batch", false, PLAIN),
                pool("train", false, GPU)))
        .as("batch has no GPU node")
        .isEqualTo("train");
    assertThat(
            servedBy(
                in("batch", "train"), SMALL, pool("batch", false), pool("train", false, PLAIN)))
        .as("batch cannot grow")
        .isEqualTo("train");
    assertThat(
            servedBy(
                in("batch", "train"),
                Resources.of("cpu", 64),
                pool("batch", false, PLAIN),
                pool("train", false, PLAIN)))
        .as("none can hold it: the first, whose decision says so")
        .isEqualTo("batch");
  }

  @Test
  void growthIsNodesComingUpAndOffNodesWithinMaxNodes() {
    List<Member> members =
        List.of(
            ready("r").build(),
            poweringOn("up").cap("cpu", 16).build(),
            off("spare").cap("cpu", 64).build(),
            off("manual").manual().cap("cpu", 128).build(),
            off("maint").maintenance().cap("cpu", 256).build());
    PodPools.Pool open = PodPools.Pool.of("p", PoolConfig.builder().build(), members);
    assertThat(open.growth())
        .containsExactlyInAnyOrder(Resources.of("cpu", 16), Resources.of("cpu", 64));
    assertThat(open.considered()).containsExactlyInAnyOrder("cpu", "memory", "gpu");
    PodPools.Pool full = PodPools.Pool.of("p", PoolConfig.builder().maxNodes(2).build(), members);
    assertThat(full.growth()).containsExactly(Resources.of("cpu", 16));
    assertThat(
            PodPools.Pool.of("d", PoolConfig.builder().defaultPool(true).build(), members)
                .defaultPool())
        .isTrue();
  }

  private static KubePod pod(String name, String nodeSelectorPool, Set<String> affinityIn) {
    return pod(name, nodeSelectorPool, Inventory.inPools(affinityIn));
  }

  private static KubePod pod(
      String name, String nodeSelectorPool, List<List<NodeRequirement>> requiredNodeTerms) {
    return KubePod.builder()
        .ref(new PodRef("default", name))
        .phase("Pending")
        .requests(Map.of("cpu", new java.math.BigDecimal(1)))
        .scheduled(false)
        .scheduledReason("Unschedulable")
        .nodeSelector(
            nodeSelectorPool == null ? Map.of() : Map.of("bamel.io/pool", nodeSelectorPool))
        .requiredNodeTerms(requiredNodeTerms)
        .build();
  }

  @Test
  void assignGivesEveryPodToOnePoolAtMost() {
    List<KubePod> pods =
        List.of(
            pod("mine", "gpu", Set.of("gpu")),
            pod("either", null, Set.of("gpu", "cpu")),
            pod("both-selectors", "gpu", Set.of("gpu", "cpu")),
            pod("anywhere", null, Set.of()),
            pod("elsewhere", "nowhere", Set.of("nowhere")));
    Map<String, List<KubePod>> byPool =
        PodPools.assign(
            pods,
            List.of(
                pool("gpu", false, GPU), pool("cpu", false, PLAIN), pool("general", true, PLAIN)));
    assertThat(byPool).containsOnlyKeys("cpu", "general", "gpu");
    assertThat(byPool.get("cpu")).extracting(p -> p.ref().name()).containsExactly("either");
    assertThat(byPool.get("gpu"))
        .extracting(p -> p.ref().name())
        .containsExactly("mine", "both-selectors");
    assertThat(byPool.get("general")).extracting(p -> p.ref().name()).containsExactly("anywhere");
  }

  @Test
  void assignEvaluatesTheRequiredTermsOfThePortsPod() {
    // [pool In (a, b) AND pool NotIn (b)]: only a, even when only b could grow for it.
    KubePod onlyA =
        pod(
            "only-a",
            null,
            List.of(
                List.of(NodeRequirement.pool("In", "a", "b"), NodeRequirement.pool("NotIn", "b"))));
    // [pool In (a)] OR [pool In (b)]: either.
    KubePod either =
        pod(
            "either",
            null,
            List.of(
                List.of(NodeRequirement.pool("In", "a")),
                List.of(NodeRequirement.pool("In", "b"))));
    Map<String, List<KubePod>> aCannotGrow =
        PodPools.assign(List.of(onlyA, either), List.of(pool("a", false), pool("b", false, PLAIN)));
    assertThat(aCannotGrow.get("a")).extracting(p -> p.ref().name()).containsExactly("only-a");
    assertThat(aCannotGrow.get("b")).extracting(p -> p.ref().name()).containsExactly("either");
    Map<String, List<KubePod>> bothGrow =
        PodPools.assign(
            List.of(onlyA, either), List.of(pool("a", false, PLAIN), pool("b", false, PLAIN)));
    assertThat(bothGrow.get("a"))
        .extracting(p -> p.ref().name())
        .containsExactly("only-a", "either");
    assertThat(bothGrow.get("b")).isEmpty();
  }
}
