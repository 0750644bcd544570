package io.bamel.pool;

import static io.bamel.pool.Fleet.NOW;
import static io.bamel.pool.Fleet.draining;
import static io.bamel.pool.Fleet.error;
import static io.bamel.pool.Fleet.joining;
import static io.bamel.pool.Fleet.off;
import static io.bamel.pool.Fleet.pod;
import static io.bamel.pool.Fleet.pool;
import static io.bamel.pool.Fleet.poweringOn;
import static io.bamel.pool.Fleet.ready;
import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.PoolConfig;
import io.bamel.pool.ScalingDecision.Direction;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The scaling policy as a table: situation -> decision. */
class ScalingPolicyTest {

  private static final PoolConfig DEFAULTS = PoolConfig.builder().build();
  private static final Duration MIN = Duration.ofMinutes(1);

  record Case(
      String name,
      PoolConfig config,
      Fleet.S snapshot,
      Direction direction,
      List<String> on,
      List<String> off,
      String reason) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Case c(
      String name,
      PoolConfig config,
      Fleet.S s,
      Direction d,
      List<String> on,
      List<String> off,
      String reason) {
    return new Case(name, config, s, d, on, off, reason);
  }

  static Stream<Case> cases() {
    Fleet.S twoReadyLow =
        pool().with(ready("a").rack("r1"), ready("b").rack("r2"), off("c")).util(0.1, 0.1);
    return Stream.of(
        // --- minNodes
        c(
            "below min switches on enough to reach it",
            PoolConfig.builder().minNodes(2).build(),
            pool().with(off("a"), off("b"), off("c")).util(0, 0),
            Direction.UP,
            List.of("a", "b"),
            List.of(),
            "min-nodes"),
        c(
            "below min counts nodes coming up",
            PoolConfig.builder().minNodes(2).build(),
            pool().with(poweringOn("a"), off("b"), off("c")),
            Direction.UP,
            List.of("b"),
            List.of(),
            "min-nodes"),
        c(
            "below min capped by max concurrent transitions",
            PoolConfig.builder().minNodes(4).maxConcurrentTransitions(2).build(),
            pool().with(off("a"), off("b"), off("c"), off("d")),
            Direction.UP,
            List.of("a", "b"),
            List.of(),
            "min-nodes"),
        c(
            "below min with nothing to switch on holds",
            PoolConfig.builder().minNodes(2).build(),
            pool().with(ready("a"), off("b").maintenance()).util(0.5, 0.5),
            Direction.NONE,
            List.of(),
            List.of(),
            "below-min-nodes"),
        c(
            "error nodes are not capacity: min picks another",
            PoolConfig.builder().minNodes(1).build(),
            pool().with(error("a"), off("b")),
            Direction.UP,
            List.of("b"),
            List.of(),
            "min-nodes"),
        c(
            "a node stuck past its join timeout is not capacity: another is picked",
            PoolConfig.builder().minNodes(1).build(),
            pool().with(joining("a").joinTimedOut(), off("b")),
            Direction.UP,
            List.of("b"),
            List.of(),
            "min-nodes"),
        // --- scale up on utilization
        c(
            "cpu above the scale-up threshold adds one node",
            DEFAULTS,
            pool().with(ready("a"), off("b"), off("c")).util(0.85, 0.2),
            Direction.UP,
            List.of("b"),
            List.of(),
            "utilization"),
        c(
            "memory above the threshold also counts",
            DEFAULTS,
            pool().with(ready("a"), off("b")).util(0.1, 0.9),
            Direction.UP,
            List.of("b"),
            List.of(),
            "utilization"),
        c(
            "exactly at the threshold does nothing",
            DEFAULTS,
            pool().with(ready("a"), off("b")).util(0.7, 0.2),
            Direction.NONE,
            List.of(),
            List.of(),
            "utilization-in-range"),
        c(
            "utilization alone does not scale up when the pool scales on pending pods",
            PoolConfig.builder().scaleUpOn("pending").build(),
            pool().with(ready("a"), off("b")).util(0.95, 0.2),
            Direction.NONE,
            List.of(),
            List.of(),
            "utilization-in-range"),
        c(
            "both: high utilization and pending pods scale up",
            PoolConfig.builder().scaleUpOn("both").build(),
            pool().with(ready("a"), off("b")).util(0.95, 0.2).pending(pod("p1", "cpu", 8)),
            Direction.UP,
            List.of("b"),
            List.of(),
            "pending-pods"),
        c(
            "both: pending pods alone do not",
            PoolConfig.builder().scaleUpOn("both").build(),
            pool().with(ready("a"), off("b")).util(0.2, 0.2).pending(pod("p1", "cpu", 8)),
            Direction.NONE,
            List.of(),
            List.of(),
            "pods-pending"),
        // --- scale up on pending pods, sized by first-fit decreasing
        c(
            "one small pending pod needs one node",
            DEFAULTS,
            pool().with(ready("a"), off("b"), off("c")).util(0.5, 0.5).pending(pod("p1", "cpu", 4)),
            Direction.UP,
            List.of("b"),
            List.of(),
            "pending-pods"),
        c(
            "pending pods that need two nodes get two",
            DEFAULTS,
            pool()
                .with(ready("a"), off("b"), off("c"), off("d"))
                .util(0.5, 0.5)
                .pending(pod("p1", "cpu", 20), pod("p2", "cpu", 20), pod("p3", "cpu", 10)),
            Direction.UP,
            List.of("b", "c"),
            List.of(),
            "pending-pods"),
        c(
            "pending pods fitting in a node already coming up wait for it",
            DEFAULTS,
            pool()
                .with(ready("a"), poweringOn("b"), off("c"))
                .util(0.5, 0.5)
                .pending(pod("p1", "cpu", 8)),
            Direction.NONE,
            List.of(),
            List.of(),
            "waiting-for-nodes"),
        c(
            "pending pods that fit a node that just became ready wait for the scheduler",
            DEFAULTS,
            pool()
                .with(ready("a").used("cpu", 8), ready("b").settling(), off("c"))
                .util(0.5, 0.5)
                .pending(pod("p1", "cpu", 16), pod("p2", "cpu", 16)),
            Direction.NONE,
            List.of(),
            List.of(),
            "waiting-for-nodes"),
        c(
            "a node ready for longer is not waited for",
            DEFAULTS,
            pool()
                .with(ready("a").used("cpu", 30), ready("b").used("cpu", 30), off("c"))
                .util(0.9, 0.5)
                .pending(pod("p1", "cpu", 16)),
            Direction.UP,
            List.of("c"),
            List.of(),
            "pending-pods"),
        c(
            "pending pods beyond the room of a node coming up add the rest",
            DEFAULTS,
            pool()
                .with(ready("a"), poweringOn("b"), off("c"), off("d"))
                .util(0.5, 0.5)
                .pending(pod("p1", "cpu", 30), pod("p2", "cpu", 30)),
            Direction.UP,
            List.of("c"),
            List.of(),
            "pending-pods"),
        c(
            "scale-up capped by maxNodes",
            PoolConfig.builder().maxNodes(2).build(),
            pool()
                .with(ready("a"), off("b"), off("c"))
                .util(0.5, 0.5)
                .pending(pod("p1", "cpu", 30), pod("p2", "cpu", 30), pod("p3", "cpu", 30)),
            Direction.UP,
            List.of("b"),
            List.of(),
            "pending-pods"),
        c(
            "at maxNodes nothing more",
            PoolConfig.builder().maxNodes(1).build(),
            pool().with(ready("a"), off("b")).util(0.9, 0.5).pending(pod("p1", "cpu", 30)),
            Direction.NONE,
            List.of(),
            List.of(),
            "at-max-nodes"),
        c(
            "scale-up capped by transitions in flight",
            PoolConfig.builder().maxConcurrentTransitions(2).build(),
            pool()
                .with(ready("a"), poweringOn("b"), off("c"), off("d"), off("e"))
                .util(0.5, 0.5)
                .pending(pod("p1", "cpu", 30), pod("p2", "cpu", 30), pod("p3", "cpu", 30)),
            Direction.UP,
            List.of("c"),
            List.of(),
            "pending-pods"),
        c(
            "transitions at the limit hold the scale-up",
            PoolConfig.builder().maxConcurrentTransitions(1).build(),
            pool().with(ready("a"), poweringOn("b"), off("c")).util(0.9, 0.5),
            Direction.NONE,
            List.of(),
            List.of(),
            "transitions-at-limit"),
        c(
            "a pod too big for any node holds",
            DEFAULTS,
            pool().with(ready("a"), off("b")).util(0.5, 0.5).pending(pod("huge", "cpu", 64)),
            Direction.NONE,
            List.of(),
            List.of(),
            "pending-pods-fit-no-node"),
        c(
            "maintenance and manual nodes are never switched on",
            DEFAULTS,
            pool()
                .with(ready("a"), off("b").maintenance(), off("c").manual(), off("d"))
                .util(0.9, 0.5),
            Direction.UP,
            List.of("d"),
            List.of(),
            "utilization"),
        c(
            "no candidate to switch on holds",
            DEFAULTS,
            pool().with(ready("a"), off("b").maintenance()).util(0.9, 0.5),
            Direction.NONE,
            List.of(),
            List.of(),
            "no-candidates"),
        c(
            "a Prometheus trigger voting up scales up",
            DEFAULTS,
            pool()
                .with(ready("a"), off("b"))
                .util(0.2, 0.2)
                .votes(Set.of("queue-depth"), Set.of(), Set.of()),
            Direction.UP,
            List.of("b"),
            List.of(),
            "trigger"),
        // --- scale down
        c(
            "low for the whole window switches the least used node off",
            DEFAULTS,
            pool()
                .with(ready("a").used("cpu", 2), ready("b").used("cpu", 1), off("c"))
                .util(0.05, 0.05)
                .lowSince(NOW.minus(Duration.ofMinutes(11))),
            Direction.DOWN,
            List.of(),
            List.of("b"),
            "underutilized"),
        c(
            "low but not for long enough holds",
            DEFAULTS,
            pool()
                .with(ready("a").used("cpu", 2), ready("b").used("cpu", 1))
                .util(0.05, 0.05)
                .lowSince(NOW.minus(Duration.ofMinutes(9))),
            Direction.NONE,
            List.of(),
            List.of(),
            "waiting-unneeded-time"),
        c(
            "a scale-up within the delay holds the scale-down",
            DEFAULTS,
            pool()
                .with(ready("a").used("cpu", 2), ready("b").used("cpu", 1))
                .util(0.05, 0.05)
                .lowSince(NOW.minus(Duration.ofHours(1)))
                .lastScaleUp(NOW.minus(MIN)),
            Direction.NONE,
            List.of(),
            List.of(),
            "cooldown-after-scale-up"),
        c(
            "minNodes stays met",
            PoolConfig.builder().minNodes(2).build(),
            pool()
                .with(ready("a").used("cpu", 2), ready("b").used("cpu", 1))
                .util(0.05, 0.05)
                .lowSince(NOW.minus(Duration.ofHours(1))),
            Direction.NONE,
            List.of(),
            List.of(),
            "at-min-nodes"),
        c(
            "no flapping: removing the node would push utilization over the scale-up threshold",
            PoolConfig.builder().scaleDownThreshold(0.5).scaleUpThreshold(0.6).build(),
            pool()
                .with(ready("a").used("cpu", 14), ready("b").used("cpu", 14))
                .util(0.45, 0.1)
                .lowSince(NOW.minus(Duration.ofHours(1))),
            Direction.NONE,
            List.of(),
            List.of(),
            "would-flap"),
        c(
            "empty nodes go together, up to maxConcurrentTransitions",
            PoolConfig.builder().maxConcurrentTransitions(2).build(),
            pool()
                .with(ready("a").used("cpu", 2), ready("b"), ready("c"), ready("d"))
                .util(0.02, 0.02)
                .lowSince(NOW.minus(Duration.ofHours(1))),
            Direction.DOWN,
            List.of(),
            List.of("b", "c"),
            "underutilized"),
        c(
            "do-not-disrupt, unevictable pods and no power-off are never chosen",
            DEFAULTS,
            pool()
                .with(
                    ready("a").used("cpu", 9),
                    ready("b").doNotDisrupt(),
                    ready("c").unevictable(),
                    ready("d").noPowerOff())
                .util(0.1, 0.1)
                .lowSince(NOW.minus(Duration.ofHours(1))),
            Direction.DOWN,
            List.of(),
            List.of("a"),
            "underutilized"),
        c(
            "unknown utilization never scales down",
            DEFAULTS,
            pool()
                .with(ready("a"), ready("b"))
                .unknownUtil("kubernetes unreachable")
                .lowSince(NOW.minus(Duration.ofHours(1))),
            Direction.NONE,
            List.of(),
            List.of(),
            "utilization-unknown"),
        c(
            "transitions in flight hold the scale-down",
            DEFAULTS,
            pool()
                .with(ready("a"), ready("b"), draining("c"))
                .util(0.05, 0.05)
                .lowSince(NOW.minus(Duration.ofHours(1))),
            Direction.NONE,
            List.of(),
            List.of(),
            "transitions-in-flight"),
        c(
            "every down trigger must agree",
            DEFAULTS,
            twoReadyLow
                .lowSince(NOW.minus(Duration.ofHours(1)))
                .votes(Set.of(), Set.of("idle-queue"), Set.of("idle-queue", "low-rps")),
            Direction.NONE,
            List.of(),
            List.of(),
            "triggers-disagree"),
        c(
            "pending pods block the scale-down even with nothing to switch on",
            DEFAULTS,
            pool()
                .with(ready("a"), ready("b"))
                .util(0.05, 0.05)
                .lowSince(NOW.minus(Duration.ofHours(1)))
                .pending(pod("p", "cpu", 64)),
            Direction.NONE,
            List.of(),
            List.of(),
            "no-candidates"),
        c(
            "maintenance nodes are not switched off by the pool",
            DEFAULTS,
            pool()
                .with(
                    ready("a").used("cpu", 3), ready("b").maintenance(), ready("c").used("cpu", 1))
                .util(0.05, 0.05)
                .lowSince(NOW.minus(Duration.ofHours(1))),
            Direction.DOWN,
            List.of(),
            List.of("c"),
            "underutilized"),
        c(
            "the only node with work on it is kept (no flapping)",
            DEFAULTS,
            pool()
                .with(ready("a").used("cpu", 3))
                .util(0.09, 0.05)
                .lowSince(NOW.minus(Duration.ofHours(1))),
            Direction.NONE,
            List.of(),
            List.of(),
            "would-flap"),
        // --- added with the controller
        c(
            "pending pods scale up even when utilization is unknown",
            DEFAULTS,
            pool()
                .with(ready("a"), off("b"))
                .unknownUtil("Kubernetes API unavailable")
                .pending(pod("p", "cpu", 4)),
            Direction.UP,
            List.of("b"),
            List.of(),
            "pending-pods"),
        c(
            "down triggers agreeing cannot scale down while utilization is unknown",
            DEFAULTS,
            pool()
                .with(ready("a"), ready("b"))
                .unknownUtil("metrics missing")
                .lowSince(NOW.minus(Duration.ofHours(1)))
                .votes(Set.of(), Set.of("idle"), Set.of("idle")),
            Direction.NONE,
            List.of(),
            List.of(),
            "utilization-unknown"),
        c(
            "a node in error does not count toward minNodes at scale-down",
            PoolConfig.builder().minNodes(2).build(),
            pool()
                .with(ready("a"), ready("b"), error("c"))
                .util(0.05, 0.05)
                .lowSince(NOW.minus(Duration.ofHours(1))),
            Direction.NONE,
            List.of(),
            List.of(),
            "at-min-nodes"),
        c(
            "a GPU pod switches on the GPU node rather than a bigger CPU node",
            DEFAULTS,
            pool()
                .with(
                    off("big").cap("cpu", 128, "memory", 512),
                    off("gpu").cap("cpu", 32, "memory", 128, "gpu", 4))
                .pending(pod("train", "cpu", 4, "gpu", 1)),
            Direction.UP,
            List.of("gpu"),
            List.of(),
            "pending-pods"),
        c(
            "a pending pod that needs a GPU fits no CPU-only node",
            DEFAULTS,
            pool().with(off("a"), off("b")).pending(pod("train", "cpu", 4, "gpu", 1)),
            Direction.NONE,
            List.of(),
            List.of(),
            "pending-pods-fit-no-node"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void decides(Case c) {
    ScalingDecision d = ScalingPolicy.decide(c.config(), c.snapshot().build(), NOW);
    assertThat(d.direction()).as(d.reason()).isEqualTo(c.direction());
    assertThat(d.powerOnIds()).as(d.reason()).isEqualTo(c.on());
    assertThat(d.powerOffIds()).as(d.reason()).isEqualTo(c.off());
    assertThat(d.reason()).startsWith(c.reason());
  }
}
