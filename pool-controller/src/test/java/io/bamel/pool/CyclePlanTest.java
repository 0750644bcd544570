package io.bamel.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.Pool;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.pool.ScalingDecision.Choice;
import io.bamel.pool.ScalingDecision.Direction;
import io.bamel.pool.history.DemandHistory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The pure side of a pool-controller cycle. */
class CyclePlanTest {

  private static List<Choice> choices(String prefix, int n) {
    return IntStream.range(0, n).mapToObj(i -> new Choice(prefix + i, "why")).toList();
  }

  /** A decision to switch {@code on} and {@code off} towards {@code desired} nodes. */
  private static ScalingDecision decision(
      Direction direction, String reason, List<Choice> on, List<Choice> off, int desired) {
    return new ScalingDecision(direction, reason, on, off, desired, null, true, null);
  }

  @Test
  void aDecisionSwitchesAtMostOneTransactionsWorthOfNodes() {
    ScalingDecision big = decision(Direction.UP, "min-nodes: x", choices("n", 40), List.of(), 45);
    ScalingDecision capped = CyclePlan.capped(big);
    assertThat(capped.powerOn()).hasSize(CyclePlan.MAX_CHANGES_PER_DECISION);
    assertThat(capped.powerOnIds()).startsWith("n0", "n1");
    assertThat(capped.desiredNodes()).isEqualTo(45 - (40 - CyclePlan.MAX_CHANGES_PER_DECISION));

    ScalingDecision down =
        decision(Direction.DOWN, "underutilized", List.of(), choices("m", 30), 10);
    ScalingDecision cappedDown = CyclePlan.capped(down);
    assertThat(cappedDown.powerOff()).hasSize(CyclePlan.MAX_CHANGES_PER_DECISION);
    assertThat(cappedDown.desiredNodes()).isEqualTo(10 + (30 - CyclePlan.MAX_CHANGES_PER_DECISION));
  }

  @Test
  void aSmallDecisionIsKeptAsItIs() {
    ScalingDecision d = decision(Direction.UP, "pending-pods: 1", choices("n", 3), List.of(), 4);
    assertThat(CyclePlan.capped(d)).isSameAs(d);
  }

  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

  private static CyclePlan cycle(PoolConfig config, List<Node> nodes) {
    Pool pool = new Pool("p", config, 5, null, 0, Set.of());
    return CyclePlan.prepare(
        CyclePlan.configured(List.of(pool)),
        nodes,
        ClusterView.of(List.of(), List.of()),
        Map.of(),
        Map.of(),
        n -> true,
        NOW);
  }

  private static List<Node> threeOff() {
    return List.of(
        Inventory.node("a", "p", NodeState.OFF, DesiredPower.OFF),
        Inventory.node("b", "p", NodeState.OFF, DesiredPower.OFF),
        Inventory.node("c", "p", NodeState.OFF, DesiredPower.OFF),
        Inventory.node("x", "other", NodeState.OFF, DesiredPower.OFF));
  }

  /** Pool p's members: a ready, b off. */
  private static List<Node> readyAndOff() {
    return List.of(
        Inventory.node("a", "p", NodeState.READY, DesiredPower.ON),
        Inventory.node("b", "p", NodeState.OFF, DesiredPower.OFF));
  }

  /** Node a (32 cores) runs a pod of 6 cores; a pod of 10 that pool p serves is pending. */
  private static ClusterView sixCoresRunningTenPending() {
    return ClusterView.of(
        List.of(Inventory.kubeNode("a", true, "cpu", 32)),
        List.of(
            Inventory.running("x", "a", "cpu", 6),
            Inventory.unschedulable("w", Set.of("p"), "cpu", 10)));
  }

  @Test
  void eachPoolsHistoryObservesItsPodsAndPendingPodsAndTheSnapshotCarriesIt() {
    Pool pool = new Pool("p", PoolConfig.builder().build(), 5, null, 0, Set.of());
    List<Node> nodes = readyAndOff();
    ClusterView view = sixCoresRunningTenPending();
    // Last week's 12:00 learned 40 cores.
    DemandHistory before =
        DemandHistory.empty()
            .observe(NOW.minus(Duration.ofDays(7)), Resources.of("cpu", 40))
            .observe(NOW.minus(Duration.ofDays(7)).plusSeconds(3600), Resources.NONE);
    CyclePlan cycle =
        CyclePlan.prepare(
            List.of(pool), nodes, view, Map.of(), Map.of(), Map.of("p", before), n -> true, NOW);
    DemandHistory after = cycle.history("p");
    assertThat(after.openHour()).isEqualTo(NOW);
    // Once 12:00 closes, its bucket moves half-way from last week's 40 to this cycle's demand:
    // the 6 cores of the pod running on a member plus the 10 of the pending pod the pool serves.
    DemandHistory closed = after.observe(NOW.plusSeconds(3600), Resources.NONE);
    assertThat(closed.expectedPeak(NOW.plus(Duration.ofDays(7)), Duration.ZERO))
        .isEqualTo(Resources.of("cpu", (40 + 16) / 2));
    PoolPlan plan = cycle.plan(pool, null);
    assertThat(plan.snapshot().history()).isSameAs(after);
    assertThat(plan.snapshot().history().expectedPeak(NOW, Duration.ofMinutes(10)))
        .as("what the policy reads: last week's 12:00")
        .isEqualTo(Resources.of("cpu", 40));

    // Kubernetes unreadable: nothing observed (no data is not zero demand).
    CyclePlan blind =
        CyclePlan.prepare(
            List.of(pool),
            nodes,
            ClusterView.unknown("down"),
            Map.of(),
            Map.of(),
            Map.of("p", before),
            n -> true,
            NOW);
    assertThat(blind.history("p")).isSameAs(before);
    assertThat(blind.plan(pool, null).snapshot().history()).isSameAs(before);
    // Without histories (the former entry point): each starts empty.
    assertThat(cycle(pool.config(), nodes).history("p").learnedHours()).isZero();
  }

  @Test
  void theTrendSamplesTheSameDemandAsTheHistoryAndNothingWhileKubernetesIsUnreadable() {
    PoolConfig config = PoolConfig.builder().scaleUpTrendWindow(Duration.ofMinutes(20)).build();
    Pool pool = new Pool("p", config, 5, null, 0, Set.of());
    List<Node> nodes = readyAndOff();
    ClusterView view = sixCoresRunningTenPending();
    PoolPlan plan =
        CyclePlan.prepare(List.of(pool), nodes, view, Map.of(), Map.of(), n -> true, NOW)
            .plan(pool, null);
    // 6 cores running on a member plus the 10 of the pending pod, in the snapshot and the memory.
    assertThat(plan.snapshot().demand().samples())
        .containsExactly(new DemandTrend.Sample(NOW, Resources.of("cpu", 16)));
    assertThat(plan.memoryAfter().demand()).isEqualTo(plan.snapshot().demand());

    // Kubernetes unreadable a cycle later: the window keeps its samples and takes no zero.
    PoolMemory remembered = plan.memoryAfter();
    PoolPlan blind =
        CyclePlan.prepare(
                List.of(pool),
                nodes,
                ClusterView.unknown("down"),
                Map.of(),
                Map.of("p", remembered),
                n -> true,
                NOW.plusSeconds(15))
            .plan(pool, null);
    assertThat(blind.snapshot().demand()).isEqualTo(remembered.demand());
    assertThat(blind.memoryAfter().demand()).isEqualTo(remembered.demand());
  }

  @Test
  void belowMinNodesThePlanPowersNodesOnWithAnEventEach() {
    CyclePlan cycle = cycle(PoolConfig.builder().minNodes(2).build(), threeOff());
    Pool pool = cycle.pools().get(0);
    assertThat(cycle.members("p")).extracting(Node::id).containsExactlyInAnyOrder("a", "b", "c");
    PoolPlan plan = cycle.plan(pool, null);
    assertThat(plan.write()).isEqualTo(PoolPlan.Write.DECISION);
    assertThat(plan.write(PoolStatusWrites.DEFAULTS, NOW, NOW))
        .as("a decision is written whatever the status tolerance")
        .isEqualTo(PoolPlan.Write.DECISION);
    assertThat(plan.decision().direction()).isEqualTo(Direction.UP);
    assertThat(plan.changes()).hasSize(2);
    assertThat(plan.changes())
        .allSatisfy(
            c -> {
              assertThat(c.desiredPower()).isEqualTo(DesiredPower.ON);
              assertThat(c.event().principal()).isEqualTo(CyclePlan.PRINCIPAL);
              assertThat(c.event().reason()).isEqualTo("pool-scale-up");
            });
    assertThat(plan.news()).isTrue();
    assertThat(plan.status().desiredNodes()).isEqualTo(2);
    assertThat(cycle.energy("p")).hasSize(3);
  }

  @Test
  void aDryRunPlansOnlyItsStatusAndARepeatIsNoNews() {
    CyclePlan cycle = cycle(PoolConfig.builder().minNodes(2).dryRun(true).build(), threeOff());
    Pool pool = cycle.pools().get(0);
    PoolPlan first = cycle.plan(pool, null);
    assertThat(first.changes()).isEmpty();
    assertThat(first.write()).isEqualTo(PoolPlan.Write.STATUS);
    assertThat(first.news()).isTrue();

    PoolPlan again = cycle(pool.config(), threeOff()).plan(pool, first.status());
    assertThat(again.news()).isFalse();
    assertThat(again.write()).isEqualTo(PoolPlan.Write.NOTHING);
    assertThat(again.write(PoolStatusWrites.DEFAULTS, NOW.minusSeconds(3600), NOW))
        .as("an unchanged status is not written, however old")
        .isEqualTo(PoolPlan.Write.NOTHING);
  }

  @Test
  void poolsWithoutAConfigAreLeftAloneAndTheRestComeInNameOrder() {
    PoolConfig config = PoolConfig.builder().build();
    List<Pool> pools =
        CyclePlan.configured(
            List.of(
                new Pool("zeta", config, 1, null, 0, Set.of()),
                new Pool("bare", null, 0, null, 0, Set.of("n1")),
                new Pool("alpha", config, 1, null, 0, Set.of())));
    assertThat(pools).extracting(Pool::name).containsExactly("alpha", "zeta");
  }

  /** {@code node}, not ready since {@code length} before now. */
  private static Node notReadyFor(Node node, Duration length) {
    return new Node(
        node.id(),
        node.spec(),
        10,
        node.status().toBuilder().notReadySince(NOW.minus(length)).build(),
        11,
        null);
  }

  @Test
  void aReadyNodeNotReadyPastThePoolsNotReadyTimeoutStopsCountingAndAnotherIsSwitchedOn() {
    Node down = Inventory.node("a", "p", NodeState.READY, DesiredPower.ON);
    Node downLong = notReadyFor(down, Duration.ofMinutes(5));
    Node downBriefly = notReadyFor(down, Duration.ofMinutes(4));
    Node off = Inventory.node("b", "p", NodeState.OFF, DesiredPower.OFF);
    PoolConfig min1 = PoolConfig.builder().minNodes(1).build();

    CyclePlan brief = cycle(min1, List.of(downBriefly, off));
    assertThat(brief.plan(brief.pools().get(0), null).changes()).as("still capacity").isEmpty();

    CyclePlan past = cycle(min1, List.of(downLong, off));
    PoolPlan plan = past.plan(past.pools().get(0), null);
    assertThat(plan.decision().direction()).isEqualTo(Direction.UP);
    assertThat(plan.changes())
        .extracting(io.bamel.inventory.store.DesiredPowerChange::id)
        .containsExactly("b");

    // the pool's own notReady timeout decides
    PoolConfig longer =
        min1.toBuilder()
            .timeouts(
                io.bamel.inventory.model.NodeTimeouts.of(null, null, null, null)
                    .withNotReady(Duration.ofMinutes(10), Duration.ofMinutes(15)))
            .build();
    CyclePlan patient = cycle(longer, List.of(downLong, off));
    assertThat(patient.plan(patient.pools().get(0), null).changes()).isEmpty();
  }
}
