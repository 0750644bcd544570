package io.bamel.pool;

import static io.bamel.pool.Fleet.NOW;
import static io.bamel.pool.Fleet.draining;
import static io.bamel.pool.Fleet.error;
import static io.bamel.pool.Fleet.errorOff;
import static io.bamel.pool.Fleet.joining;
import static io.bamel.pool.Fleet.off;
import static io.bamel.pool.Fleet.pod;
import static io.bamel.pool.Fleet.pool;
import static io.bamel.pool.Fleet.poweringOn;
import static io.bamel.pool.Fleet.ready;
import static io.bamel.pool.Fleet.unknown;
import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.PoolConfig;
import io.bamel.pool.ScalingDecision.Direction;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The scaling policy as a table: situation -> decision, including the low-utilization window the
 * decision leaves ({@code lowSince}: null when utilization is not low or unknown, the decision time
 * when it first is or after a scale-down, else unchanged).
 */
class ScalingPolicyTest {

  private static final PoolConfig DEFAULTS = PoolConfig.builder().build();
  private static final Duration MIN = Duration.ofMinutes(1);
  private static final Instant HOUR_AGO = NOW.minus(Duration.ofHours(1));
  private static final Instant FIVE_MIN_AGO = NOW.minus(Duration.ofMinutes(5));

  record Case(
      String name,
      PoolConfig config,
      Fleet.S snapshot,
      Direction direction,
      List<String> on,
      List<String> off,
      String reason,
      Instant lowSince) {
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
      String reason,
      Instant lowSince) {
    return new Case(name, config, s, d, on, off, reason, lowSince);
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
            "min-nodes",
            NOW),
        c(
            "below min counts nodes coming up",
            PoolConfig.builder().minNodes(2).build(),
            pool().with(poweringOn("a"), off("b"), off("c")),
            Direction.UP,
            List.of("b"),
            List.of(),
            "min-nodes",
            NOW),
        c(
            "below min capped by max concurrent transitions",
            PoolConfig.builder().minNodes(4).maxConcurrentTransitions(2).build(),
            pool().with(off("a"), off("b"), off("c"), off("d")),
            Direction.UP,
            List.of("a", "b"),
            List.of(),
            "min-nodes",
            NOW),
        c(
            "below min with nothing to switch on holds",
            PoolConfig.builder().minNodes(2).build(),
            pool().with(ready("a"), off("b").maintenance()).util(0.5, 0.5),
            Direction.NONE,
            List.of(),
            List.of(),
            "below-min-nodes",
            null),
        c(
            "error nodes are not capacity: min picks another",
            PoolConfig.builder().minNodes(1).build(),
            pool().with(error("a"), off("b")),
            Direction.UP,
            List.of("b"),
            List.of(),
            "min-nodes",
            NOW),
        c(
            "a node stuck past its join timeout is not capacity: another is picked",
            PoolConfig.builder().minNodes(1).build(),
            pool().with(joining("a").joinTimedOut(), off("b")),
            Direction.UP,
            List.of("b"),
            List.of(),
            "min-nodes",
            NOW),
        c(
            "a ready node NotReady past the pool's notReady timeout is not capacity: another is"
                + " picked",
            PoolConfig.builder().minNodes(1).build(),
            pool().with(ready("a").notReady(), off("b")),
            Direction.UP,
            List.of("b"),
            List.of(),
            "min-nodes",
            NOW),
        c(
            "a NotReady node being power-cycled (joining) is not capacity on its way either",
            PoolConfig.builder().minNodes(2).build(),
            pool().with(ready("a"), joining("b").notReady(), off("c")),
            Direction.UP,
            List.of("c"),
            List.of(),
            "min-nodes",
            NOW),
        // --- scale up on utilization
        c(
            "cpu above the scale-up threshold adds one node",
            DEFAULTS,
            pool().with(ready("a"), off("b"), off("c")).util(0.85, 0.2),
            Direction.UP,
            List.of("b"),
            List.of(),
            "utilization",
            null),
        c(
            "memory above the threshold also counts",
            DEFAULTS,
            pool().with(ready("a"), off("b")).util(0.1, 0.9),
            Direction.UP,
            List.of("b"),
            List.of(),
            "utilization",
            null),
        c(
            "exactly at the threshold does nothing",
            DEFAULTS,
            pool().with(ready("a"), off("b")).util(0.7, 0.2),
            Direction.NONE,
            List.of(),
            List.of(),
            "utilization-in-range",
            null),
        c(
            "utilization alone does not scale up when the pool scales on pending pods",
            PoolConfig.builder().scaleUpOn("pending").build(),
            pool().with(ready("a"), off("b")).util(0.95, 0.2),
            Direction.NONE,
            List.of(),
            List.of(),
            "utilization-in-range",
            null),
        c(
            "both: high utilization and pending pods scale up",
            PoolConfig.builder().scaleUpOn("both").build(),
            pool().with(ready("a"), off("b")).util(0.95, 0.2).pending(pod("p1", "cpu", 8)),
            Direction.UP,
            List.of("b"),
            List.of(),
            "pending-pods",
            null),
        c(
            "both: pending pods alone do not",
            PoolConfig.builder().scaleUpOn("both").build(),
            pool().with(ready("a"), off("b")).util(0.2, 0.2).pending(pod("p1", "cpu", 8)),
            Direction.NONE,
            List.of(),
            List.of(),
            "pending-awaits-utilization",
            NOW),
        // --- scale up on pending pods, sized by first-fit decreasing
        c(
            "one small pending pod needs one node",
            DEFAULTS,
            pool().with(ready("a"), off("b"), off("c")).util(0.5, 0.5).pending(pod("p1", "cpu", 4)),
            Direction.UP,
            List.of("b"),
            List.of(),
            "pending-pods",
            null),
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
            "pending-pods",
            null),
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
            "waiting-for-nodes",
            null),
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
            "waiting-for-nodes",
            null),
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
            "pending-pods",
            null),
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
            "pending-pods",
            null),
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
            "pending-pods",
            null),
        c(
            "at maxNodes nothing more",
            PoolConfig.builder().maxNodes(1).build(),
            pool().with(ready("a"), off("b")).util(0.9, 0.5).pending(pod("p1", "cpu", 30)),
            Direction.NONE,
            List.of(),
            List.of(),
            "at-max-nodes",
            null),
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
            "pending-pods",
            null),
        c(
            "transitions at the limit hold the scale-up",
            PoolConfig.builder().maxConcurrentTransitions(1).build(),
            pool().with(ready("a"), poweringOn("b"), off("c")).util(0.9, 0.5),
            Direction.NONE,
            List.of(),
            List.of(),
            "transitions-at-limit",
            null),
        c(
            "a pod too big for any node holds",
            DEFAULTS,
            pool().with(ready("a"), off("b")).util(0.5, 0.5).pending(pod("huge", "cpu", 64)),
            Direction.NONE,
            List.of(),
            List.of(),
            "pending-pods-fit-no-node",
            null),
        c(
            "maintenance and manual nodes are never switched on",
            DEFAULTS,
            pool()
                .with(ready("a"), off("b").maintenance(), off("c").manual(), off("d"))
                .util(0.9, 0.5),
            Direction.UP,
            List.of("d"),
            List.of(),
            "utilization",
            null),
        c(
            "no candidate to switch on holds",
            DEFAULTS,
            pool().with(ready("a"), off("b").maintenance()).util(0.9, 0.5),
            Direction.NONE,
            List.of(),
            List.of(),
            "no-candidates",
            null),
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
            "trigger: triggers voting up: queue-depth",
            NOW),
        // --- power-on candidates (issue 17)
        c(
            "a node whose BMC was unreachable at the last sync is not switched on",
            DEFAULTS,
            pool().with(ready("a"), unknown("b"), off("c")).util(0.85, 0.2),
            Direction.UP,
            List.of("c"),
            List.of(),
            "utilization",
            null),
        c(
            "a node in error is not switched on",
            DEFAULTS,
            pool().with(ready("a"), errorOff("b"), off("c")).util(0.85, 0.2),
            Direction.UP,
            List.of("c"),
            List.of(),
            "utilization",
            null),
        c(
            "a node no driver can switch on is not switched on",
            DEFAULTS,
            pool().with(ready("a"), off("b").noPowerDriver(), off("c")).util(0.85, 0.2),
            Direction.UP,
            List.of("c"),
            List.of(),
            "utilization",
            null),
        c(
            "only excluded nodes: nothing to switch on",
            DEFAULTS,
            pool()
                .with(
                    ready("a"),
                    unknown("b"),
                    errorOff("c"),
                    off("d").maintenance(),
                    off("e").noPowerDriver())
                .util(0.85, 0.2),
            Direction.NONE,
            List.of(),
            List.of(),
            "no-candidates",
            null),
        c(
            "below min with only excluded nodes holds",
            PoolConfig.builder().minNodes(2).build(),
            pool().with(ready("a"), unknown("b"), errorOff("c")).util(0.5, 0.5),
            Direction.NONE,
            List.of(),
            List.of(),
            "below-min-nodes",
            null),
        c(
            "pending pods with only excluded nodes hold",
            DEFAULTS,
            pool().with(ready("a"), unknown("b")).util(0.5, 0.5).pending(pod("p", "cpu", 1)),
            Direction.NONE,
            List.of(),
            List.of(),
            "no-candidates",
            null),
        // --- capacity on its way and scaleUpCooldown (issue 17)
        c(
            "high utilization with a node powering on waits for it",
            DEFAULTS,
            pool().with(ready("a"), poweringOn("b"), off("c")).util(0.85, 0.2),
            Direction.NONE,
            List.of(),
            List.of(),
            "capacity-on-its-way",
            null),
        c(
            "high utilization with a node joining waits for it",
            DEFAULTS,
            pool().with(ready("a"), joining("b"), off("c")).util(0.85, 0.2),
            Direction.NONE,
            List.of(),
            List.of(),
            "capacity-on-its-way",
            null),
        c(
            "a trigger voting up with a node coming up waits for it",
            DEFAULTS,
            pool()
                .with(ready("a"), poweringOn("b"), off("c"))
                .util(0.2, 0.2)
                .votes(Set.of("queue-depth"), Set.of(), Set.of()),
            Direction.NONE,
            List.of(),
            List.of(),
            "capacity-on-its-way",
            NOW),
        c(
            "pending pods a joining node will hold wait even with high utilization",
            DEFAULTS,
            pool()
                .with(ready("a"), joining("b"), off("c"))
                .util(0.85, 0.2)
                .pending(pod("p", "cpu", 1)),
            Direction.NONE,
            List.of(),
            List.of(),
            "capacity-on-its-way",
            null),
        c(
            "high utilization within scaleUpCooldown of the last scale-up holds",
            DEFAULTS,
            pool()
                .with(ready("a"), ready("b"), off("c"))
                .util(0.85, 0.2)
                .lastScaleUp(NOW.minus(MIN)),
            Direction.NONE,
            List.of(),
            List.of(),
            "scale-up-cooldown",
            null),
        c(
            "a trigger within scaleUpCooldown holds",
            DEFAULTS,
            pool()
                .with(ready("a"), off("b"))
                .util(0.2, 0.2)
                .lastScaleUp(NOW.minus(MIN))
                .votes(Set.of("queue-depth"), Set.of(), Set.of()),
            Direction.NONE,
            List.of(),
            List.of(),
            "scale-up-cooldown",
            NOW),
        c(
            "high utilization after scaleUpCooldown adds one",
            DEFAULTS,
            pool()
                .with(ready("a"), ready("b"), off("c"))
                .util(0.85, 0.2)
                .lastScaleUp(NOW.minus(Duration.ofMinutes(2))),
            Direction.UP,
            List.of("c"),
            List.of(),
            "utilization",
            null),
        c(
            "a shorter scaleUpCooldown is honoured",
            PoolConfig.builder().scaleUpCooldown(Duration.ofSeconds(30)).build(),
            pool()
                .with(ready("a"), ready("b"), off("c"))
                .util(0.85, 0.2)
                .lastScaleUp(NOW.minus(MIN)),
            Direction.UP,
            List.of("c"),
            List.of(),
            "utilization",
            null),
        c(
            "pending pods are not held by scaleUpCooldown",
            DEFAULTS,
            pool()
                .with(ready("a"), off("b"))
                .util(0.2, 0.2)
                .lastScaleUp(NOW.minus(MIN))
                .pending(pod("p", "cpu", 1)),
            Direction.UP,
            List.of("b"),
            List.of(),
            "pending-pods",
            NOW),
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
            "underutilized",
            NOW),
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
            "waiting-unneeded-time",
            NOW.minus(Duration.ofMinutes(9))),
        c(
            "a scale-up within the delay holds the scale-down",
            DEFAULTS,
            pool()
                .with(ready("a").used("cpu", 2), ready("b").used("cpu", 1))
                .util(0.05, 0.05)
                .lowSince(HOUR_AGO)
                .lastScaleUp(NOW.minus(MIN)),
            Direction.NONE,
            List.of(),
            List.of(),
            "cooldown-after-scale-up",
            HOUR_AGO),
        c(
            "minNodes stays met",
            PoolConfig.builder().minNodes(2).build(),
            pool()
                .with(ready("a").used("cpu", 2), ready("b").used("cpu", 1))
                .util(0.05, 0.05)
                .lowSince(HOUR_AGO),
            Direction.NONE,
            List.of(),
            List.of(),
            "at-min-nodes",
            HOUR_AGO),
        c(
            "no flapping: removing the node would push utilization over the scale-up threshold",
            PoolConfig.builder().scaleDownThreshold(0.5).scaleUpThreshold(0.6).build(),
            pool()
                .with(ready("a").used("cpu", 14), ready("b").used("cpu", 14))
                .util(0.45, 0.1)
                .lowSince(HOUR_AGO),
            Direction.NONE,
            List.of(),
            List.of(),
            "would-flap",
            HOUR_AGO),
        c(
            "empty nodes go together, up to maxConcurrentTransitions",
            PoolConfig.builder().maxConcurrentTransitions(2).build(),
            pool()
                .with(ready("a").used("cpu", 2), ready("b"), ready("c"), ready("d"))
                .util(0.02, 0.02)
                .lowSince(HOUR_AGO),
            Direction.DOWN,
            List.of(),
            List.of("b", "c"),
            "underutilized",
            NOW),
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
                .lowSince(HOUR_AGO),
            Direction.DOWN,
            List.of(),
            List.of("a"),
            "underutilized",
            NOW),
        c(
            "unknown utilization never scales down",
            DEFAULTS,
            pool()
                .with(ready("a"), ready("b"))
                .unknownUtil("kubernetes unreachable")
                .lowSince(HOUR_AGO),
            Direction.NONE,
            List.of(),
            List.of(),
            "utilization-unknown",
            null),
        c(
            "transitions in flight hold the scale-down",
            DEFAULTS,
            pool().with(ready("a"), ready("b"), draining("c")).util(0.05, 0.05).lowSince(HOUR_AGO),
            Direction.NONE,
            List.of(),
            List.of(),
            "transitions-in-flight",
            HOUR_AGO),
        c(
            "every down trigger must agree",
            DEFAULTS,
            twoReadyLow
                .lowSince(HOUR_AGO)
                .votes(Set.of(), Set.of("idle-queue"), Set.of("idle-queue", "low-rps")),
            Direction.NONE,
            List.of(),
            List.of(),
            "triggers-disagree",
            HOUR_AGO),
        c(
            "pending pods block the scale-down even with nothing to switch on",
            DEFAULTS,
            pool()
                .with(ready("a"), ready("b"))
                .util(0.05, 0.05)
                .lowSince(HOUR_AGO)
                .pending(pod("p", "cpu", 64)),
            Direction.NONE,
            List.of(),
            List.of(),
            "no-candidates",
            HOUR_AGO),
        c(
            "maintenance nodes are not switched off by the pool",
            DEFAULTS,
            pool()
                .with(
                    ready("a").used("cpu", 3), ready("b").maintenance(), ready("c").used("cpu", 1))
                .util(0.05, 0.05)
                .lowSince(HOUR_AGO),
            Direction.DOWN,
            List.of(),
            List.of("c"),
            "underutilized",
            NOW),
        c(
            "the only node with work on it is kept (no flapping)",
            DEFAULTS,
            pool().with(ready("a").used("cpu", 3)).util(0.09, 0.05).lowSince(HOUR_AGO),
            Direction.NONE,
            List.of(),
            List.of(),
            "would-flap",
            HOUR_AGO),
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
            "pending-pods",
            null),
        c(
            "down triggers agreeing cannot scale down while utilization is unknown",
            DEFAULTS,
            pool()
                .with(ready("a"), ready("b"))
                .unknownUtil("metrics missing")
                .lowSince(HOUR_AGO)
                .votes(Set.of(), Set.of("idle"), Set.of("idle")),
            Direction.NONE,
            List.of(),
            List.of(),
            "utilization-unknown",
            null),
        c(
            "a node in error does not count toward minNodes at scale-down",
            PoolConfig.builder().minNodes(2).build(),
            pool().with(ready("a"), ready("b"), error("c")).util(0.05, 0.05).lowSince(HOUR_AGO),
            Direction.NONE,
            List.of(),
            List.of(),
            "at-min-nodes",
            HOUR_AGO),
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
            "pending-pods",
            NOW),
        c(
            "a pending pod that needs a GPU fits no CPU-only node",
            DEFAULTS,
            pool().with(off("a"), off("b")).pending(pod("train", "cpu", 4, "gpu", 1)),
            Direction.NONE,
            List.of(),
            List.of(),
            "pending-pods-fit-no-node",
            NOW),
        // --- the low-utilization window
        c(
            "the first low reading starts the window",
            DEFAULTS,
            pool().with(ready("a").used("cpu", 2), ready("b").used("cpu", 1)).util(0.05, 0.05),
            Direction.NONE,
            List.of(),
            List.of(),
            "waiting-unneeded-time",
            NOW),
        c(
            "continuing low keeps the window's start",
            DEFAULTS,
            pool()
                .with(ready("a").used("cpu", 2), ready("b").used("cpu", 1))
                .util(0.05, 0.05)
                .lowSince(FIVE_MIN_AGO),
            Direction.NONE,
            List.of(),
            List.of(),
            "waiting-unneeded-time",
            FIVE_MIN_AGO),
        c(
            "a spike mid-window ends the window",
            DEFAULTS,
            pool()
                .with(ready("a").used("cpu", 12), ready("b").used("cpu", 4))
                .util(0.5, 0.1)
                .lowSince(FIVE_MIN_AGO),
            Direction.NONE,
            List.of(),
            List.of(),
            "utilization-in-range",
            null),
        c(
            "one resource above the scale-down threshold is enough to end the window",
            DEFAULTS,
            pool().with(ready("a"), ready("b")).util(0.05, 0.31).lowSince(FIVE_MIN_AGO),
            Direction.NONE,
            List.of(),
            List.of(),
            "utilization-in-range",
            null),
        c(
            "a spike above the scale-up threshold mid-window scales up and ends the window",
            DEFAULTS,
            pool().with(ready("a"), off("b")).util(0.9, 0.1).lowSince(FIVE_MIN_AGO),
            Direction.UP,
            List.of("b"),
            List.of(),
            "utilization",
            null),
        c(
            "utilization turning unknown mid-window ends the window",
            DEFAULTS,
            pool()
                .with(ready("a"), ready("b"))
                .unknownUtil("metrics missing")
                .lowSince(FIVE_MIN_AGO),
            Direction.NONE,
            List.of(),
            List.of(),
            "utilization-unknown",
            null),
        // --- added with the audit
        c(
            "down triggers that all agree let the scale-down happen",
            DEFAULTS,
            pool()
                .with(ready("a").used("cpu", 2), ready("b").used("cpu", 1))
                .util(0.05, 0.05)
                .lowSince(HOUR_AGO)
                .votes(Set.of(), Set.of("idle-queue", "low-rps"), Set.of("idle-queue", "low-rps")),
            Direction.DOWN,
            List.of(),
            List.of("b"),
            "underutilized",
            NOW),
        c(
            "maxNodes counts nodes already powering on",
            PoolConfig.builder().maxNodes(3).build(),
            pool()
                .with(ready("a"), poweringOn("b"), off("c"), off("d"), off("e"))
                .util(0.5, 0.5)
                .pending(pod("p1", "cpu", 30), pod("p2", "cpu", 30), pod("p3", "cpu", 30)),
            Direction.UP,
            List.of("c"),
            List.of(),
            "pending-pods",
            null),
        c(
            "a node powering on that reaches maxNodes holds the scale-up",
            PoolConfig.builder().maxNodes(2).build(),
            pool().with(ready("a"), poweringOn("b"), off("c")).util(0.9, 0.5),
            Direction.NONE,
            List.of(),
            List.of(),
            "at-max-nodes",
            null),
        c(
            "memory pressure switches on the node with the most memory",
            DEFAULTS,
            pool()
                .with(
                    ready("a"),
                    off("cpu-big").cap("cpu", 64, "memory", 128),
                    off("mem-big").cap("cpu", 32, "memory", 512))
                .util(0.2, 0.9),
            Direction.UP,
            List.of("mem-big"),
            List.of(),
            "utilization",
            null),
        c(
            "cpu pressure switches on the node with the most cpu",
            DEFAULTS,
            pool()
                .with(
                    ready("a"),
                    off("cpu-big").cap("cpu", 64, "memory", 128),
                    off("mem-big").cap("cpu", 32, "memory", 512))
                .util(0.9, 0.2),
            Direction.UP,
            List.of("cpu-big"),
            List.of(),
            "utilization",
            null),
        c(
            "both: pending pods with utilization unknown do not scale up either",
            PoolConfig.builder().scaleUpOn("both").build(),
            pool()
                .with(ready("a"), off("b"))
                .unknownUtil("Kubernetes API unavailable")
                .pending(pod("p1", "cpu", 8)),
            Direction.NONE,
            List.of(),
            List.of(),
            "pending-awaits-utilization",
            null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void decides(Case c) {
    ScalingDecision d = ScalingPolicy.decide(c.config(), c.snapshot().build(), NOW);
    assertThat(d.direction()).as(d.reason()).isEqualTo(c.direction());
    assertThat(d.powerOnIds()).as(d.reason()).isEqualTo(c.on());
    assertThat(d.powerOffIds()).as(d.reason()).isEqualTo(c.off());
    assertThat(d.reason()).startsWith(c.reason());
    assertThat(d.lowSince()).as("lowSince; " + d.reason()).isEqualTo(c.lowSince());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void isPure(Case c) {
    PoolSnapshot snapshot = c.snapshot().build();
    assertThat(ScalingPolicy.decide(c.config(), snapshot, NOW))
        .isEqualTo(ScalingPolicy.decide(c.config(), snapshot, NOW));
  }

  @Test
  void pendingPodsHeldBackByScaleUpOnBothSayWhatIsMissing() {
    PoolConfig both = PoolConfig.builder().scaleUpOn("both").build();
    ScalingDecision low =
        ScalingPolicy.decide(
            both,
            pool().with(ready("a"), off("b")).util(0.2, 0.1).pending(pod("p1", "cpu", 8)).build(),
            NOW);
    assertThat(low.reason())
        .isEqualTo(
            "pending-awaits-utilization: 1 pods are pending, but scaleUpOn=both also needs a"
                + " utilization above 0.7 (highest now 0.20)");
    ScalingDecision unknown =
        ScalingPolicy.decide(
            both,
            pool()
                .with(ready("a"), off("b"))
                .unknownUtil("Kubernetes API unavailable")
                .pending(pod("p1", "cpu", 8))
                .build(),
            NOW);
    assertThat(unknown.reason())
        .startsWith("pending-awaits-utilization: ")
        .endsWith("(utilization unknown: Kubernetes API unavailable)");
  }
}
