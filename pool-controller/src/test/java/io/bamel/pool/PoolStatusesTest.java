package io.bamel.pool;

import static io.bamel.pool.Fleet.off;
import static io.bamel.pool.Fleet.pod;
import static io.bamel.pool.Fleet.pool;
import static io.bamel.pool.Fleet.poweringOn;
import static io.bamel.pool.Fleet.ready;
import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.PoolCondition;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PoolStatus;
import io.bamel.inventory.model.ScalingNode;
import io.bamel.pool.ScalingDecision.Direction;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pool status a decision leaves, and the memory kept in it. */
class PoolStatusesTest {

  private static final Instant NOW = Fleet.NOW;
  private static final List<String> RESOURCES = List.of("cpu", "memory");

  /**
   * A {@link PoolStatuses#next} call on {@code snapshot} and {@code decision}; what a test leaves
   * out takes its default: no previous status, no votes, no memory, {@link #RESOURCES}, executed
   * for real, at {@link #NOW}.
   */
  private static Next next(PoolSnapshot snapshot, ScalingDecision decision) {
    return new Next(snapshot, decision);
  }

  private static final class Next {
    private final PoolSnapshot snapshot;
    private final ScalingDecision decision;
    private PoolStatus previous;
    private Votes votes = Votes.NONE;
    private PoolMemory memory = PoolMemory.NONE;
    private boolean dryRun;
    private Instant at = NOW;

    private Next(PoolSnapshot snapshot, ScalingDecision decision) {
      this.snapshot = snapshot;
      this.decision = decision;
    }

    Next after(PoolStatus previous) {
      this.previous = previous;
      return this;
    }

    Next votes(Votes votes) {
      this.votes = votes;
      return this;
    }

    Next memory(PoolMemory memory) {
      this.memory = memory;
      return this;
    }

    Next dryRun() {
      this.dryRun = true;
      return this;
    }

    Next at(Instant at) {
      this.at = at;
      return this;
    }

    PoolStatus status() {
      return PoolStatuses.next(previous, snapshot, decision, votes, memory, RESOURCES, dryRun, at);
    }
  }

  private static PoolCondition condition(PoolStatus s, String type) {
    return s.conditions().stream().filter(c -> c.type().equals(type)).findFirst().orElseThrow();
  }

  @Test
  void aScaleUpRecordsItsNodesCountsAndMemory() {
    PoolSnapshot snap =
        pool()
            .with(ready("a"), poweringOn("b"), off("c"), off("d"))
            .util(0.5, 0.25)
            .pending(pod("p", "cpu", 20), pod("q", "cpu", 20))
            .build();
    ScalingDecision d = ScalingPolicy.decide(PoolConfig.builder().build(), snap, NOW);
    assertThat(d.direction()).isEqualTo(Direction.UP);
    PoolMemory memory = PoolStatuses.memoryAfter(PoolMemory.NONE, d, false, NOW);
    PoolStatus s = next(snap, d).memory(memory).status();

    assertThat(s.readyNodes()).isEqualTo(1);
    assertThat(s.pendingNodes()).isEqualTo(1 + d.powerOn().size());
    assertThat(s.desiredNodes()).isEqualTo(d.desiredNodes());
    assertThat(s.lastScaleTime()).isEqualTo(NOW);
    assertThat(s.scalingNodes())
        .extracting(ScalingNode::node)
        .contains("b")
        .containsAll(d.powerOnIds());
    ScalingNode b =
        s.scalingNodes().stream().filter(n -> n.node().equals("b")).findFirst().orElseThrow();
    assertThat(b.action()).isEqualTo("power-on");
    assertThat(b.reason()).isEqualTo("in transition");
    assertThat(s.utilization()).containsEntry("cpu", 0.5).containsEntry("memory", 0.25);
    assertThat(s.pendingResources().cpu().asDouble()).isEqualTo(40.0);
    assertThat(s.extensions()).containsEntry(PoolStatuses.PENDING_PODS, 2);
    assertThat(s.activeResources().cpu().asDouble()).isEqualTo(32.0);
    // cpu 0.5 is below the default scaleDownThreshold (0.60): the low window opens even as the
    // pool scales up for its pending pods (a scale-down also needs nothing pending).
    assertThat(PoolMemory.from(s)).isEqualTo(new PoolMemory(NOW, NOW));
    assertThat(condition(s, PoolStatuses.UTILIZATION_KNOWN).status()).isEqualTo("True");
    assertThat(condition(s, PoolStatuses.DRY_RUN).status()).isEqualTo("False");
  }

  @Test
  void conditionsKeepTheirTransitionTimeWhileUnchanged() {
    PoolSnapshot unknown =
        pool().with(ready("a")).unknownUtil("Kubernetes API unavailable").build();
    ScalingDecision d = ScalingPolicy.decide(PoolConfig.builder().build(), unknown, NOW);
    PoolStatus first = next(unknown, d).status();
    PoolCondition c1 = condition(first, PoolStatuses.UTILIZATION_KNOWN);
    assertThat(c1.status()).isEqualTo("False");
    assertThat(c1.message()).isEqualTo("Kubernetes API unavailable");
    assertThat(first.utilization()).isEmpty();

    Instant later = NOW.plusSeconds(15);
    PoolStatus second = next(unknown, d).after(first).at(later).status();
    assertThat(condition(second, PoolStatuses.UTILIZATION_KNOWN).lastTransitionTime())
        .isEqualTo(NOW);
    assertThat(second).isEqualTo(first);

    PoolSnapshot known = pool().with(ready("a")).util(0.5, 0.5).build();
    ScalingDecision d2 = ScalingPolicy.decide(PoolConfig.builder().build(), known, later);
    PoolStatus third = next(known, d2).after(second).at(later).status();
    assertThat(condition(third, PoolStatuses.UTILIZATION_KNOWN).status()).isEqualTo("True");
    assertThat(condition(third, PoolStatuses.UTILIZATION_KNOWN).lastTransitionTime())
        .isEqualTo(later);
  }

  @Test
  void aDryRunRecordsTheDecisionButNoScaleTime() {
    PoolSnapshot snap = pool().with(off("a")).pending(pod("p", "cpu", 4)).build();
    ScalingDecision d = ScalingPolicy.decide(PoolConfig.builder().build(), snap, NOW);
    PoolStatus s =
        next(snap, d)
            .votes(
                new Votes(
                    java.util.Set.of(), java.util.Set.of(), java.util.Set.of(), false, "down"))
            .dryRun()
            .status();
    assertThat(s.lastScaleTime()).isNull();
    assertThat(s.pendingNodes()).isZero();
    assertThat(s.scalingNodes())
        .singleElement()
        .satisfies(
            n -> {
              assertThat(n.node()).isEqualTo("a");
              assertThat(n.reason()).startsWith("dry-run: pending-pods");
            });
    assertThat(condition(s, PoolStatuses.DRY_RUN).status()).isEqualTo("True");
    assertThat(condition(s, PoolStatuses.TRIGGERS_AVAILABLE).status()).isEqualTo("False");
    assertThat(s.extensions().get(PoolStatuses.LAST_DECISION))
        .isEqualTo(
            Map.of(
                "direction",
                "up",
                "reason",
                d.reason(),
                "powerOn",
                List.of("a"),
                "powerOff",
                List.of(),
                "dryRun",
                true,
                "since",
                NOW.toString()));
  }

  @Test
  void aDryRunRepeatingItsDecisionLeavesTheSameStatus() {
    PoolConfig config = PoolConfig.builder().dryRun(true).build();
    PoolSnapshot snap =
        pool().with(ready("r"), off("a")).util(0.5, 0.5).pending(pod("p", "cpu", 4)).build();
    ScalingDecision d = ScalingPolicy.decide(config, snap, NOW);
    assertThat(d.direction()).isEqualTo(Direction.UP);
    PoolMemory m1 = PoolStatuses.memoryAfter(PoolMemory.NONE, d, true, NOW);
    assertThat(m1.lastScaleUp()).as("a dry run starts no cooldown").isNull();
    PoolStatus first = next(snap, d).memory(m1).dryRun().status();

    Instant later = NOW.plusSeconds(15);
    PoolSnapshot again =
        pool()
            .with(ready("r"), off("a"))
            .util(0.5, 0.5)
            .pending(pod("p", "cpu", 4))
            .lowSince(m1.lowSince())
            .lastScaleUp(m1.lastScaleUp())
            .build();
    ScalingDecision d2 = ScalingPolicy.decide(config, again, later);
    PoolMemory m2 = PoolStatuses.memoryAfter(m1, d2, true, later);
    PoolStatus second = next(again, d2).after(first).memory(m2).dryRun().at(later).status();
    assertThat(PoolStatuses.sameDecision(first, d2, true)).isTrue();
    assertThat(second).isEqualTo(first);
    assertThat(second.scalingNodes()).singleElement().extracting(ScalingNode::since).isEqualTo(NOW);

    // Executed for real, the same choice is a new action: it gets its own time.
    PoolStatus real = next(again, d2).after(second).memory(m2).at(later).status();
    assertThat(PoolStatuses.sameDecision(second, d2, false)).isFalse();
    assertThat(real.scalingNodes())
        .filteredOn(n -> n.node().equals("a"))
        .singleElement()
        .satisfies(
            n -> {
              assertThat(n.since()).isEqualTo(later);
              assertThat(n.reason()).startsWith("pending-pods");
            });
  }

  @Test
  void aDryRunScaleDownKeepsTheWindowAndTheLastScaleUp() {
    Instant up = NOW.minus(Duration.ofHours(2));
    Instant low = NOW.minus(Duration.ofHours(1));
    PoolSnapshot snap =
        pool()
            .with(ready("a").used("cpu", 1), ready("b").used("cpu", 2))
            .util(0.05, 0.05)
            .lowSince(low)
            .lastScaleUp(up)
            .build();
    ScalingDecision d = ScalingPolicy.decide(PoolConfig.builder().build(), snap, NOW);
    assertThat(d.direction()).isEqualTo(Direction.DOWN);
    assertThat(PoolStatuses.memoryAfter(new PoolMemory(low, up), d, true, NOW))
        .isEqualTo(new PoolMemory(low, up));
    ScalingDecision upDecision =
        ScalingPolicy.decide(
            PoolConfig.builder().build(),
            pool().with(ready("a"), off("b")).util(0.9, 0.1).build(),
            NOW);
    assertThat(PoolStatuses.memoryAfter(new PoolMemory(null, up), upDecision, true, NOW))
        .isEqualTo(new PoolMemory(null, up));
    assertThat(PoolStatuses.memoryAfter(new PoolMemory(null, up), upDecision, false, NOW))
        .isEqualTo(new PoolMemory(null, NOW));
  }

  @Test
  void theSameDecisionIsTheSameDirectionReasonWordNodesAndDryRun() {
    ScalingDecision three =
        new ScalingDecision(
            Direction.UP,
            "pending-pods: 3 pending pods",
            List.of(new ScalingDecision.Choice("a", "x")),
            List.of(),
            2,
            null,
            true,
            null);
    PoolStatus s = next(pool().with(off("a")).build(), three).dryRun().status();
    ScalingDecision four =
        new ScalingDecision(
            Direction.UP,
            "pending-pods: 4 pending pods",
            three.powerOn(),
            List.of(),
            2,
            null,
            true,
            null);
    ScalingDecision other =
        new ScalingDecision(
            Direction.UP,
            "pending-pods: 4 pending pods",
            List.of(new ScalingDecision.Choice("b", "x")),
            List.of(),
            2,
            null,
            true,
            null);
    assertThat(PoolStatuses.sameDecision(s, four, true)).isTrue();
    assertThat(PoolStatuses.sameDecision(s, other, true)).isFalse();
    assertThat(PoolStatuses.sameDecision(s, four, false)).isFalse();
    assertThat(PoolStatuses.sameDecision(null, four, true)).isFalse();
  }

  @Test
  void transitionsKeepTheirSinceAndReason() {
    PoolSnapshot snap = pool().with(poweringOn("b"), ready("a")).util(0.5, 0.5).build();
    ScalingDecision d = ScalingPolicy.decide(PoolConfig.builder().build(), snap, NOW);
    PoolStatus before =
        PoolStatus.builder()
            .scalingNodes(
                List.of(
                    new ScalingNode(
                        "b",
                        "power-on",
                        NOW.minusSeconds(60),
                        null,
                        null,
                        "pending-pods: 2 pending pods",
                        null)))
            .build();
    PoolStatus s = next(snap, d).after(before).status();
    assertThat(s.scalingNodes())
        .singleElement()
        .satisfies(
            n -> {
              assertThat(n.since()).isEqualTo(NOW.minusSeconds(60));
              assertThat(n.reason()).isEqualTo("pending-pods: 2 pending pods");
            });
  }

  @Test
  void memoryRoundTripsThroughTheStatusAndIgnoresGarbage() {
    PoolMemory m = new PoolMemory(NOW.minus(Duration.ofMinutes(3)), NOW.minus(Duration.ofHours(1)));
    PoolStatus s = PoolStatus.builder().extensions(m.into(Map.of("other", 1))).build();
    assertThat(PoolMemory.from(s)).isEqualTo(m);
    assertThat(s.extensions()).containsEntry("other", 1);
    assertThat(
            PoolMemory.from(
                PoolStatus.builder().extensions(Map.of(PoolMemory.LOW_SINCE, "soon")).build()))
        .isEqualTo(PoolMemory.NONE);
    assertThat(PoolMemory.from(null)).isEqualTo(PoolMemory.NONE);
    assertThat(PoolMemory.NONE.into(s.extensions())).containsOnlyKeys("other");
  }

  @Test
  void aScaleDownRestartsTheWindowAndKeepsTheLastScaleUp() {
    Instant up = NOW.minus(Duration.ofHours(2));
    PoolSnapshot snap =
        pool()
            .with(ready("a").used("cpu", 1), ready("b").used("cpu", 2))
            .util(0.05, 0.05)
            .lowSince(NOW.minus(Duration.ofHours(1)))
            .lastScaleUp(up)
            .build();
    ScalingDecision d = ScalingPolicy.decide(PoolConfig.builder().build(), snap, NOW);
    assertThat(d.direction()).isEqualTo(Direction.DOWN);
    assertThat(
            PoolStatuses.memoryAfter(
                new PoolMemory(NOW.minus(Duration.ofHours(1)), up), d, false, NOW))
        .isEqualTo(new PoolMemory(NOW, up));
  }

  @Test
  void aPoolWhoseOnlyCandidatesAreExcludedSaysSo() {
    PoolSnapshot excluded =
        pool()
            .with(
                ready("a"),
                Fleet.unknown("b"),
                Fleet.unknown("c"),
                Fleet.errorOff("d"),
                off("e").maintenance(),
                off("f").noPowerDriver())
            .util(0.85, 0.2)
            .build();
    ScalingDecision d = ScalingPolicy.decide(PoolConfig.builder().build(), excluded, NOW);
    PoolStatus s = next(excluded, d).status();
    PoolCondition c = condition(s, PoolStatuses.POWER_ON_CANDIDATES);
    assertThat(c.status()).isEqualTo("False");
    assertThat(c.reason()).isEqualTo("AllExcluded");
    assertThat(c.message())
        .isEqualTo(
            "no node may be switched on: 2 BMC unreachable at the last sync, 1 in error,"
                + " 1 in maintenance, 1 no power driver can switch it on");

    PoolSnapshot oneLeft =
        pool().with(ready("a"), Fleet.unknown("b"), off("c")).util(0.5, 0.2).build();
    PoolStatus t =
        next(oneLeft, ScalingPolicy.decide(PoolConfig.builder().build(), oneLeft, NOW))
            .after(s)
            .at(NOW.plusSeconds(15))
            .status();
    assertThat(condition(t, PoolStatuses.POWER_ON_CANDIDATES).status()).isEqualTo("True");
    assertThat(condition(t, PoolStatuses.POWER_ON_CANDIDATES).reason()).isEqualTo("Available");

    PoolSnapshot allOn = pool().with(ready("a")).util(0.5, 0.2).build();
    PoolStatus u =
        next(allOn, ScalingPolicy.decide(PoolConfig.builder().build(), allOn, NOW))
            .after(t)
            .at(NOW.plusSeconds(30))
            .status();
    assertThat(condition(u, PoolStatuses.POWER_ON_CANDIDATES).reason()).isEqualTo("NoneOff");
  }
}
