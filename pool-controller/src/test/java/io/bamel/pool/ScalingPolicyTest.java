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
import static io.bamel.pool.ScalingDecision.Direction.DOWN;
import static io.bamel.pool.ScalingDecision.Direction.NONE;
import static io.bamel.pool.ScalingDecision.Direction.UP;
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
  private static final PoolConfig TREND =
      PoolConfig.builder()
          .scaleUpTrendWindow(Duration.ofMinutes(10))
          .scaleUpLookahead(Duration.ofMinutes(5))
          .build();

  /** One named situation and the decision it must give; a field left out takes its default. */
  static final class Case {
    private final String name;
    private PoolConfig config = DEFAULTS;
    private Fleet.S fleet;
    private Direction direction;
    private String reason;
    private List<String> on = List.of();
    private List<String> off = List.of();
    private Instant lowSince;

    private Case(String name) {
      this.name = name;
    }

    Case config(PoolConfig config) {
      this.config = config;
      return this;
    }

    Case fleet(Fleet.S fleet) {
      this.fleet = fleet;
      return this;
    }

    /** The direction and the reason the decision's text starts with. */
    Case expect(Direction direction, String reason) {
      this.direction = direction;
      this.reason = reason;
      return this;
    }

    /** The nodes switched on, in order (none by default). */
    Case on(String... ids) {
      this.on = List.of(ids);
      return this;
    }

    /** The nodes switched off, in order (none by default). */
    Case off(String... ids) {
      this.off = List.of(ids);
      return this;
    }

    /** The low-utilization window the decision leaves (null by default). */
    Case lowSince(Instant lowSince) {
      this.lowSince = lowSince;
      return this;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  private static final PoolConfig CONSOLIDATE = PoolConfig.builder().consolidate(true).build();

  /**
   * Utilization 0.65, above the default scale-down threshold (0.60), and 0.69 without the small
   * node c, whose pod fits on b.
   */
  static Fleet.S aboveScaleDownWithASmallNode() {
    return pool()
        .with(
            ready("a").cap("cpu", 64, "memory", 128).pods(List.of("cpu", 44)),
            ready("b").cap("cpu", 64, "memory", 128).pods(List.of("cpu", 40)),
            ready("c").cap("cpu", 8, "memory", 128).pods(List.of("cpu", 4)))
        .measured();
  }

  /** A ready node beside two off ones: one with the most cpu, one with the most memory. */
  static Fleet.S cpuBigAndMemBig() {
    return pool()
        .with(
            ready("a"),
            off("cpu-big").cap("cpu", 64, "memory", 128),
            off("mem-big").cap("cpu", 32, "memory", 512));
  }

  static Case when(String name) {
    return new Case(name);
  }

  static Stream<Case> cases() {
    Fleet.S twoReadyLow =
        pool().with(ready("a").rack("r1"), ready("b").rack("r2"), off("c")).util(0.1, 0.1);
    Fleet.S oneComingUpThreeBigPending =
        pool()
            .with(ready("a"), poweringOn("b"), off("c"), off("d"), off("e"))
            .util(0.65, 0.65)
            .pending(pod("p1", "cpu", 30), pod("p2", "cpu", 30), pod("p3", "cpu", 30));
    Fleet.S oneComingUpHighUtil = pool().with(ready("a"), poweringOn("b"), off("c")).util(0.9, 0.5);
    return Stream.of(
        // --- minNodes
        when("below min switches on enough to reach it")
            .config(PoolConfig.builder().minNodes(2).build())
            .fleet(pool().with(off("a"), off("b"), off("c")).util(0, 0))
            .expect(UP, "min-nodes")
            .on("a", "b")
            .lowSince(NOW),
        when("below min counts nodes coming up")
            .config(PoolConfig.builder().minNodes(2).build())
            .fleet(pool().with(poweringOn("a"), off("b"), off("c")))
            .expect(UP, "min-nodes")
            .on("b")
            .lowSince(NOW),
        when("below min capped by max concurrent transitions")
            .config(PoolConfig.builder().minNodes(4).maxConcurrentTransitions(2).build())
            .fleet(pool().with(off("a"), off("b"), off("c"), off("d")))
            .expect(UP, "min-nodes")
            .on("a", "b")
            .lowSince(NOW),
        when("below min with nothing to switch on holds")
            .config(PoolConfig.builder().minNodes(2).build())
            .fleet(pool().with(ready("a"), off("b").maintenance()).util(0.65, 0.65))
            .expect(NONE, "below-min-nodes"),
        when("error nodes are not capacity: min picks another")
            .config(PoolConfig.builder().minNodes(1).build())
            .fleet(pool().with(error("a"), off("b")))
            .expect(UP, "min-nodes")
            .on("b")
            .lowSince(NOW),
        when("a node stuck past its join timeout is not capacity: another is picked")
            .config(PoolConfig.builder().minNodes(1).build())
            .fleet(pool().with(joining("a").joinTimedOut(), off("b")))
            .expect(UP, "min-nodes")
            .on("b")
            .lowSince(NOW),
        when("a ready node NotReady past the pool's notReady timeout is not capacity: another is"
                + " picked")
            .config(PoolConfig.builder().minNodes(1).build())
            .fleet(pool().with(ready("a").notReady(), off("b")))
            .expect(UP, "min-nodes")
            .on("b")
            .lowSince(NOW),
        when("a NotReady node being power-cycled (joining) is not capacity on its way either")
            .config(PoolConfig.builder().minNodes(2).build())
            .fleet(pool().with(ready("a"), joining("b").notReady(), off("c")))
            .expect(UP, "min-nodes")
            .on("c")
            .lowSince(NOW),
        // --- scale up on utilization
        when("cpu above the scale-up threshold adds one node")
            .fleet(pool().with(ready("a"), off("b"), off("c")).util(0.85, 0.2))
            .expect(UP, "utilization")
            .on("b"),
        when("memory above the threshold also counts")
            .fleet(pool().with(ready("a"), off("b")).util(0.1, 0.9))
            .expect(UP, "utilization")
            .on("b"),
        when("exactly at the threshold does nothing")
            .fleet(pool().with(ready("a"), off("b")).util(0.7, 0.2))
            .expect(NONE, "utilization-in-range"),
        when("utilization alone does not scale up when the pool scales on pending pods")
            .config(PoolConfig.builder().scaleUpOn("pending").build())
            .fleet(pool().with(ready("a"), off("b")).util(0.95, 0.2))
            .expect(NONE, "utilization-in-range"),
        when("both: high utilization and pending pods scale up")
            .config(PoolConfig.builder().scaleUpOn("both").build())
            .fleet(pool().with(ready("a"), off("b")).util(0.95, 0.2).pending(pod("p1", "cpu", 8)))
            .expect(UP, "pending-pods")
            .on("b"),
        when("both: pending pods alone do not")
            .config(PoolConfig.builder().scaleUpOn("both").build())
            .fleet(pool().with(ready("a"), off("b")).util(0.2, 0.2).pending(pod("p1", "cpu", 8)))
            .expect(NONE, "pending-awaits-utilization")
            .lowSince(NOW),
        // --- scale up on pending pods, sized by first-fit decreasing
        when("one small pending pod needs one node")
            .fleet(
                pool()
                    .with(ready("a"), off("b"), off("c"))
                    .util(0.65, 0.65)
                    .pending(pod("p1", "cpu", 4)))
            .expect(UP, "pending-pods")
            .on("b"),
        when("pending pods that need two nodes get two")
            .fleet(
                pool()
                    .with(ready("a"), off("b"), off("c"), off("d"))
                    .util(0.65, 0.65)
                    .pending(pod("p1", "cpu", 20), pod("p2", "cpu", 20), pod("p3", "cpu", 10)))
            .expect(UP, "pending-pods")
            .on("b", "c"),
        when("pending pods fitting in a node already coming up wait for it")
            .fleet(
                pool()
                    .with(ready("a"), poweringOn("b"), off("c"))
                    .util(0.65, 0.65)
                    .pending(pod("p1", "cpu", 8)))
            .expect(NONE, "waiting-for-nodes"),
        when("pending pods that fit a node that just became ready wait for the scheduler")
            .fleet(
                pool()
                    .with(ready("a").used("cpu", 8), ready("b").settling(), off("c"))
                    .util(0.65, 0.65)
                    .pending(pod("p1", "cpu", 16), pod("p2", "cpu", 16)))
            .expect(NONE, "waiting-for-nodes"),
        when("a node ready for longer is not waited for")
            .fleet(
                pool()
                    .with(ready("a").used("cpu", 30), ready("b").used("cpu", 30), off("c"))
                    .util(0.9, 0.5)
                    .pending(pod("p1", "cpu", 16)))
            .expect(UP, "pending-pods")
            .on("c"),
        when("pending pods beyond the room of a node coming up add the rest")
            .fleet(
                pool()
                    .with(ready("a"), poweringOn("b"), off("c"), off("d"))
                    .util(0.65, 0.65)
                    .pending(pod("p1", "cpu", 30), pod("p2", "cpu", 30)))
            .expect(UP, "pending-pods")
            .on("c"),
        when("scale-up capped by maxNodes")
            .config(PoolConfig.builder().maxNodes(2).build())
            .fleet(
                pool()
                    .with(ready("a"), off("b"), off("c"))
                    .util(0.65, 0.65)
                    .pending(pod("p1", "cpu", 30), pod("p2", "cpu", 30), pod("p3", "cpu", 30)))
            .expect(UP, "pending-pods")
            .on("b"),
        when("at maxNodes nothing more")
            .config(PoolConfig.builder().maxNodes(1).build())
            .fleet(pool().with(ready("a"), off("b")).util(0.9, 0.5).pending(pod("p1", "cpu", 30)))
            .expect(NONE, "at-max-nodes"),
        when("scale-up capped by transitions in flight")
            .config(PoolConfig.builder().maxConcurrentTransitions(2).build())
            .fleet(oneComingUpThreeBigPending)
            .expect(UP, "pending-pods")
            .on("c"),
        when("transitions at the limit hold the scale-up")
            .config(PoolConfig.builder().maxConcurrentTransitions(1).build())
            .fleet(oneComingUpHighUtil)
            .expect(NONE, "transitions-at-limit"),
        when("a pod too big for any node holds")
            .fleet(
                pool().with(ready("a"), off("b")).util(0.65, 0.65).pending(pod("huge", "cpu", 64)))
            .expect(NONE, "pending-pods-fit-no-node"),
        when("maintenance and manual nodes are never switched on")
            .fleet(
                pool()
                    .with(ready("a"), off("b").maintenance(), off("c").manual(), off("d"))
                    .util(0.9, 0.5))
            .expect(UP, "utilization")
            .on("d"),
        when("no candidate to switch on holds")
            .fleet(pool().with(ready("a"), off("b").maintenance()).util(0.9, 0.5))
            .expect(NONE, "no-candidates"),
        when("a Prometheus trigger voting up scales up")
            .fleet(
                pool()
                    .with(ready("a"), off("b"))
                    .util(0.2, 0.2)
                    .votes(Set.of("queue-depth"), Set.of(), Set.of()))
            .expect(UP, "trigger: triggers voting up: queue-depth")
            .on("b")
            .lowSince(NOW),
        // --- power-on candidates (issue 17)
        when("a node whose BMC was unreachable at the last sync is not switched on")
            .fleet(pool().with(ready("a"), unknown("b"), off("c")).util(0.85, 0.2))
            .expect(UP, "utilization")
            .on("c"),
        when("a node in error is not switched on")
            .fleet(pool().with(ready("a"), errorOff("b"), off("c")).util(0.85, 0.2))
            .expect(UP, "utilization")
            .on("c"),
        when("a node no driver can switch on is not switched on")
            .fleet(pool().with(ready("a"), off("b").noPowerDriver(), off("c")).util(0.85, 0.2))
            .expect(UP, "utilization")
            .on("c"),
        when("only excluded nodes: nothing to switch on")
            .fleet(
                pool()
                    .with(
                        ready("a"),
                        unknown("b"),
                        errorOff("c"),
                        off("d").maintenance(),
                        off("e").noPowerDriver())
                    .util(0.85, 0.2))
            .expect(NONE, "no-candidates"),
        when("below min with only excluded nodes holds")
            .config(PoolConfig.builder().minNodes(2).build())
            .fleet(pool().with(ready("a"), unknown("b"), errorOff("c")).util(0.65, 0.65))
            .expect(NONE, "below-min-nodes"),
        when("pending pods with only excluded nodes hold")
            .fleet(
                pool().with(ready("a"), unknown("b")).util(0.65, 0.65).pending(pod("p", "cpu", 1)))
            .expect(NONE, "no-candidates"),
        // --- capacity on its way and scaleUpCooldown (issue 17)
        when("high utilization with a node powering on waits for it")
            .fleet(pool().with(ready("a"), poweringOn("b"), off("c")).util(0.85, 0.2))
            .expect(NONE, "capacity-on-its-way"),
        when("high utilization with a node joining waits for it")
            .fleet(pool().with(ready("a"), joining("b"), off("c")).util(0.85, 0.2))
            .expect(NONE, "capacity-on-its-way"),
        when("a trigger voting up with a node coming up waits for it")
            .fleet(
                pool()
                    .with(ready("a"), poweringOn("b"), off("c"))
                    .util(0.2, 0.2)
                    .votes(Set.of("queue-depth"), Set.of(), Set.of()))
            .expect(NONE, "capacity-on-its-way")
            .lowSince(NOW),
        when("pending pods a joining node will hold wait even with high utilization")
            .fleet(
                pool()
                    .with(ready("a"), joining("b"), off("c"))
                    .util(0.85, 0.2)
                    .pending(pod("p", "cpu", 1)))
            .expect(NONE, "capacity-on-its-way"),
        when("high utilization within scaleUpCooldown of the last scale-up holds")
            .fleet(
                pool()
                    .with(ready("a"), ready("b"), off("c"))
                    .util(0.85, 0.2)
                    .lastScaleUp(NOW.minus(MIN)))
            .expect(NONE, "scale-up-cooldown"),
        when("a trigger within scaleUpCooldown holds")
            .fleet(
                pool()
                    .with(ready("a"), off("b"))
                    .util(0.2, 0.2)
                    .lastScaleUp(NOW.minus(MIN))
                    .votes(Set.of("queue-depth"), Set.of(), Set.of()))
            .expect(NONE, "scale-up-cooldown")
            .lowSince(NOW),
        when("high utilization after scaleUpCooldown adds one")
            .fleet(
                pool()
                    .with(ready("a"), ready("b"), off("c"))
                    .util(0.85, 0.2)
                    .lastScaleUp(NOW.minus(Duration.ofMinutes(2))))
            .expect(UP, "utilization")
            .on("c"),
        when("a shorter scaleUpCooldown is honoured")
            .config(PoolConfig.builder().scaleUpCooldown(Duration.ofSeconds(30)).build())
            .fleet(
                pool()
                    .with(ready("a"), ready("b"), off("c"))
                    .util(0.85, 0.2)
                    .lastScaleUp(NOW.minus(MIN)))
            .expect(UP, "utilization")
            .on("c"),
        when("pending pods are not held by scaleUpCooldown")
            .fleet(
                pool()
                    .with(ready("a"), off("b"))
                    .util(0.2, 0.2)
                    .lastScaleUp(NOW.minus(MIN))
                    .pending(pod("p", "cpu", 1)))
            .expect(UP, "pending-pods")
            .on("b")
            .lowSince(NOW),
        // --- the demand's trend (scaleUpTrendWindow, scaleUpLookahead)
        when("a rising demand projected over the threshold switches one on")
            .config(TREND)
            .fleet(
                pool()
                    .with(ready("a"), ready("b"), off("c"))
                    .util(0.6, 0.2)
                    .cpuDemand(18.4, 38.4, 10))
            .expect(UP, "trend")
            .on("c"),
        when("the same rise without a trend window holds")
            .fleet(
                pool()
                    .with(ready("a"), ready("b"), off("c"))
                    .util(0.6, 0.2)
                    .cpuDemand(18.4, 38.4, 10))
            .expect(NONE, "utilization-in-range"),
        when("a flat demand at the same level holds")
            .config(TREND)
            .fleet(
                pool()
                    .with(ready("a"), ready("b"), off("c"))
                    .util(0.6, 0.2)
                    .cpuDemand(38.4, 38.4, 10))
            .expect(NONE, "utilization-in-range"),
        when("a rise seen for less than half the window is not trusted yet")
            .config(TREND)
            .fleet(
                pool()
                    .with(ready("a"), ready("b"), off("c"))
                    .util(0.6, 0.2)
                    .cpuDemand(30.4, 38.4, 4))
            .expect(NONE, "utilization-in-range"),
        when("a rise too slow to pass the threshold within the lookahead holds")
            .config(TREND)
            .fleet(
                pool()
                    .with(ready("a"), ready("b"), off("c"))
                    .util(0.6, 0.2)
                    .cpuDemand(33.4, 38.4, 10))
            .expect(NONE, "utilization-in-range"),
        when("a rising demand with a node coming up waits for it")
            .config(TREND.toBuilder().scaleUpLookahead(Duration.ofMinutes(10)).build())
            .fleet(
                pool()
                    .with(ready("a"), ready("b"), poweringOn("c"), off("d"))
                    .util(0.6, 0.2)
                    .cpuDemand(8.4, 38.4, 10))
            .expect(NONE, "capacity-on-its-way"),
        when("a rising demand the node coming up covers asks nothing")
            .config(TREND)
            .fleet(
                pool()
                    .with(ready("a"), ready("b"), poweringOn("c"), off("d"))
                    .util(0.6, 0.2)
                    .cpuDemand(18.4, 38.4, 10))
            .expect(NONE, "utilization-in-range"),
        when("a rising demand holds a scale-down that utilization alone allows")
            .config(TREND)
            .fleet(
                pool()
                    .with(ready("a").used("cpu", 15), ready("b").used("cpu", 5))
                    .util(0.3125, 0.1)
                    .lowSince(HOUR_AGO)
                    .cpuDemand(10, 20, 10))
            .expect(NONE, "demand-rising")
            .lowSince(HOUR_AGO),
        when("a falling demand does not hold the scale-down")
            .config(TREND)
            .fleet(
                pool()
                    .with(ready("a").used("cpu", 15), ready("b").used("cpu", 5))
                    .util(0.3125, 0.1)
                    .lowSince(HOUR_AGO)
                    .cpuDemand(30, 20, 10))
            .expect(DOWN, "underutilized")
            .off("b")
            .lowSince(NOW),
        // --- scale down
        when("low for the whole window switches the least used node off")
            .fleet(
                pool()
                    .with(ready("a").used("cpu", 2), ready("b").used("cpu", 1), off("c"))
                    .util(0.05, 0.05)
                    .lowSince(NOW.minus(Duration.ofMinutes(11))))
            .expect(DOWN, "underutilized")
            .off("b")
            .lowSince(NOW),
        when("low but not for long enough holds")
            .fleet(
                pool()
                    .with(ready("a").used("cpu", 2), ready("b").used("cpu", 1))
                    .util(0.05, 0.05)
                    .lowSince(NOW.minus(Duration.ofMinutes(9))))
            .expect(NONE, "waiting-unneeded-time")
            .lowSince(NOW.minus(Duration.ofMinutes(9))),
        when("a scale-up within the delay holds the scale-down")
            .fleet(
                pool()
                    .with(ready("a").used("cpu", 2), ready("b").used("cpu", 1))
                    .util(0.05, 0.05)
                    .lowSince(HOUR_AGO)
                    .lastScaleUp(NOW.minus(MIN)))
            .expect(NONE, "cooldown-after-scale-up")
            .lowSince(HOUR_AGO),
        when("minNodes stays met")
            .config(PoolConfig.builder().minNodes(2).build())
            .fleet(
                pool()
                    .with(ready("a").used("cpu", 2), ready("b").used("cpu", 1))
                    .util(0.05, 0.05)
                    .lowSince(HOUR_AGO))
            .expect(NONE, "at-min-nodes")
            .lowSince(HOUR_AGO),
        when("no flapping: removing the node would push utilization over the scale-up threshold")
            .config(PoolConfig.builder().scaleDownThreshold(0.5).scaleUpThreshold(0.6).build())
            .fleet(
                pool()
                    .with(ready("a").used("cpu", 14), ready("b").used("cpu", 14))
                    .util(0.45, 0.1)
                    .lowSince(HOUR_AGO))
            .expect(NONE, "would-flap")
            .lowSince(HOUR_AGO),
        when("empty nodes go together, up to maxConcurrentTransitions")
            .config(PoolConfig.builder().maxConcurrentTransitions(2).build())
            .fleet(
                pool()
                    .with(ready("a").used("cpu", 2), ready("b"), ready("c"), ready("d"))
                    .util(0.02, 0.02)
                    .lowSince(HOUR_AGO))
            .expect(DOWN, "underutilized")
            .off("b", "c")
            .lowSince(NOW),
        when("do-not-disrupt, unevictable pods and no power-off are never chosen")
            .fleet(
                pool()
                    .with(
                        ready("a").used("cpu", 9),
                        ready("b").doNotDisrupt(),
                        ready("c").unevictable(),
                        ready("d").noPowerOff())
                    .util(0.1, 0.1)
                    .lowSince(HOUR_AGO))
            .expect(DOWN, "underutilized")
            .off("a")
            .lowSince(NOW),
        when("unknown utilization never scales down")
            .fleet(
                pool()
                    .with(ready("a"), ready("b"))
                    .unknownUtil("kubernetes unreachable")
                    .lowSince(HOUR_AGO))
            .expect(NONE, "utilization-unknown"),
        when("transitions in flight hold the scale-down")
            .fleet(
                pool()
                    .with(ready("a"), ready("b"), draining("c"))
                    .util(0.05, 0.05)
                    .lowSince(HOUR_AGO))
            .expect(NONE, "transitions-in-flight")
            .lowSince(HOUR_AGO),
        when("every down trigger must agree")
            .fleet(
                twoReadyLow
                    .lowSince(HOUR_AGO)
                    .votes(Set.of(), Set.of("idle-queue"), Set.of("idle-queue", "low-rps")))
            .expect(NONE, "triggers-disagree")
            .lowSince(HOUR_AGO),
        when("pending pods block the scale-down even with nothing to switch on")
            .fleet(
                pool()
                    .with(ready("a"), ready("b"))
                    .util(0.05, 0.05)
                    .lowSince(HOUR_AGO)
                    .pending(pod("p", "cpu", 64)))
            .expect(NONE, "no-candidates")
            .lowSince(HOUR_AGO),
        when("maintenance nodes are not switched off by the pool")
            .fleet(
                pool()
                    .with(
                        ready("a").used("cpu", 3),
                        ready("b").maintenance(),
                        ready("c").used("cpu", 1))
                    .util(0.05, 0.05)
                    .lowSince(HOUR_AGO))
            .expect(DOWN, "underutilized")
            .off("c")
            .lowSince(NOW),
        when("the only node with work on it is kept (no flapping)")
            .fleet(pool().with(ready("a").used("cpu", 3)).util(0.09, 0.05).lowSince(HOUR_AGO))
            .expect(NONE, "would-flap")
            .lowSince(HOUR_AGO),
        // --- consolidation (consolidate: true)
        when("consolidation drains the node whose pod fits on another, fewest pods first")
            .config(CONSOLIDATE)
            .fleet(
                pool()
                    .with(
                        ready("a").pods(List.of("cpu", 20)),
                        ready("b").pods(List.of("cpu", 4), List.of("cpu", 4)),
                        ready("c").pods(List.of("cpu", 6)))
                    .measured())
            .expect(DOWN, "consolidation: the 1 pods of c fit on the other ready nodes")
            .off("c")
            .lowSince(NOW),
        when("consolidation needs no low utilization, only room for the pods and no flapping")
            .config(CONSOLIDATE)
            .fleet(aboveScaleDownWithASmallNode())
            .expect(DOWN, "consolidation")
            .off("c"),
        when("the same pool without consolidation holds: utilization is not low")
            .fleet(aboveScaleDownWithASmallNode())
            .expect(NONE, "utilization-in-range"),
        when("consolidation keeps a node whose pods fit in the pool's total room but not per node")
            .config(CONSOLIDATE.toBuilder().scaleUpThreshold(0.9).build())
            .fleet(
                pool()
                    .with(
                        ready("a").pods(List.of("cpu", 18)),
                        ready("b").pods(List.of("cpu", 18)),
                        ready("c").pods(List.of("cpu", 18)),
                        ready("d").pods(List.of("cpu", 18)))
                    .measured())
            .expect(NONE, "nothing-to-consolidate")
            .lowSince(NOW),
        when("consolidation passes over nodes whose pod exceeds every free room to one that fits")
            .config(CONSOLIDATE.toBuilder().scaleUpThreshold(0.9).build())
            .fleet(
                pool()
                    .with(
                        ready("a").pods(List.of("cpu", 6), List.of("cpu", 6)),
                        ready("b").pods(List.of("cpu", 22)),
                        ready("c").pods(List.of("cpu", 22)))
                    .measured())
            .expect(DOWN, "consolidation: the 2 pods of a fit")
            .off("a")
            .lowSince(NOW),
        when("consolidation keeps GPU pods that find no free GPUs, whatever the cpu says")
            .config(CONSOLIDATE)
            .fleet(
                pool()
                    .with(
                        ready("a")
                            .cap("cpu", 32, "memory", 128, "gpu", 8)
                            .pods(List.of("cpu", 1, "gpu", 4)),
                        ready("b")
                            .cap("cpu", 32, "memory", 128, "gpu", 8)
                            .pods(List.of("cpu", 1, "gpu", 6)))
                    .measured())
            .expect(NONE, "nothing-to-consolidate")
            .lowSince(NOW),
        when("consolidation moves a GPU pod to a node with GPUs free")
            .config(CONSOLIDATE)
            .fleet(
                pool()
                    .with(
                        ready("a")
                            .cap("cpu", 32, "memory", 128, "gpu", 8)
                            .pods(List.of("cpu", 1, "gpu", 2)),
                        ready("b")
                            .cap("cpu", 32, "memory", 128, "gpu", 8)
                            .pods(List.of("cpu", 1, "gpu", 4)))
                    .measured())
            .expect(DOWN, "consolidation")
            .off("a")
            .lowSince(NOW),
        when("zero-request pods fit anywhere: their node goes when the other's pod fits nowhere")
            .config(CONSOLIDATE)
            .fleet(
                pool()
                    .with(
                        ready("a").pods(List.of("cpu", 10)),
                        ready("b").cap("cpu", 8, "memory", 128).pods(List.of(), List.of()))
                    .measured())
            .expect(DOWN, "consolidation: the 2 pods of b fit")
            .off("b")
            .lowSince(NOW),
        when("a node with only DaemonSet pods (nothing to move) goes first, as empty")
            .config(CONSOLIDATE)
            .fleet(
                pool()
                    .with(
                        ready("a").pods(List.of("cpu", 2)),
                        ready("b").pods().used("cpu", 1),
                        ready("c").pods(List.of("cpu", 1)))
                    .measured())
            .expect(DOWN, "consolidation: 1 nodes with no pod to move")
            .off("b")
            .lowSince(NOW),
        when("consolidation switches empty nodes off together, up to maxConcurrentTransitions")
            .config(CONSOLIDATE.toBuilder().maxConcurrentTransitions(2).build())
            .fleet(
                pool()
                    .with(
                        ready("a").pods(List.of("cpu", 2)),
                        ready("b").pods(),
                        ready("c").pods(),
                        ready("d").pods())
                    .measured())
            .expect(DOWN, "consolidation: 2 nodes with no pod to move")
            .off("b", "c")
            .lowSince(NOW),
        when("consolidation prefers the node that frees the most idle power per pod moved")
            .config(CONSOLIDATE)
            .fleet(
                pool()
                    .with(
                        ready("a").idleWatts(300).pods(List.of("cpu", 1), List.of("cpu", 1)),
                        ready("b").idleWatts(100).pods(List.of("cpu", 1)),
                        ready("c").idleWatts(100).pods(List.of("cpu", 1)))
                    .measured())
            .expect(DOWN, "consolidation: the 2 pods of a fit")
            .off("a")
            .lowSince(NOW),
        when("consolidation never drains a node whose pods are not known")
            .config(CONSOLIDATE)
            .fleet(pool().with(ready("a").used("cpu", 2), ready("b").used("cpu", 1)).measured())
            .expect(NONE, "nothing-to-consolidate")
            .lowSince(NOW),
        when("consolidation that would push utilization over the scale-up threshold holds")
            .config(CONSOLIDATE)
            .fleet(
                pool()
                    .with(ready("a").pods(List.of("cpu", 14)), ready("b").pods(List.of("cpu", 9)))
                    .measured())
            .expect(NONE, "would-flap")
            .lowSince(NOW),
        when("consolidation waits delayAfterScaleUp after a scale-up")
            .config(CONSOLIDATE)
            .fleet(
                pool()
                    .with(ready("a").pods(List.of("cpu", 2)), ready("b").pods(List.of("cpu", 1)))
                    .measured()
                    .lastScaleUp(NOW.minus(MIN)))
            .expect(NONE, "cooldown-after-scale-up")
            .lowSince(NOW),
        when("consolidation keeps minNodes")
            .config(CONSOLIDATE.toBuilder().minNodes(2).build())
            .fleet(pool().with(ready("a").pods(List.of("cpu", 2)), ready("b").pods()).measured())
            .expect(NONE, "at-min-nodes")
            .lowSince(NOW),
        when("consolidation waits for a drain in flight")
            .config(CONSOLIDATE)
            .fleet(
                pool()
                    .with(
                        ready("a").pods(List.of("cpu", 2)),
                        ready("b").pods(List.of("cpu", 1)),
                        draining("c"))
                    .measured())
            .expect(NONE, "transitions-in-flight")
            .lowSince(NOW),
        // --- added with the controller
        when("pending pods scale up even when utilization is unknown")
            .fleet(
                pool()
                    .with(ready("a"), off("b"))
                    .unknownUtil("Kubernetes API unavailable")
                    .pending(pod("p", "cpu", 4)))
            .expect(UP, "pending-pods")
            .on("b"),
        when("down triggers agreeing cannot scale down while utilization is unknown")
            .fleet(
                pool()
                    .with(ready("a"), ready("b"))
                    .unknownUtil("metrics missing")
                    .lowSince(HOUR_AGO)
                    .votes(Set.of(), Set.of("idle"), Set.of("idle")))
            .expect(NONE, "utilization-unknown"),
        when("a node in error does not count toward minNodes at scale-down")
            .config(PoolConfig.builder().minNodes(2).build())
            .fleet(
                pool().with(ready("a"), ready("b"), error("c")).util(0.05, 0.05).lowSince(HOUR_AGO))
            .expect(NONE, "at-min-nodes")
            .lowSince(HOUR_AGO),
        when("a GPU pod switches on the GPU node rather than a bigger CPU node")
            .fleet(
                pool()
                    .with(
                        off("big").cap("cpu", 128, "memory", 512),
                        off("gpu").cap("cpu", 32, "memory", 128, "gpu", 4))
                    .pending(pod("train", "cpu", 4, "gpu", 1)))
            .expect(UP, "pending-pods")
            .on("gpu")
            .lowSince(NOW),
        when("a pending pod that needs a GPU fits no CPU-only node")
            .fleet(pool().with(off("a"), off("b")).pending(pod("train", "cpu", 4, "gpu", 1)))
            .expect(NONE, "pending-pods-fit-no-node")
            .lowSince(NOW),
        // --- the low-utilization window
        when("the first low reading starts the window")
            .fleet(
                pool().with(ready("a").used("cpu", 2), ready("b").used("cpu", 1)).util(0.05, 0.05))
            .expect(NONE, "waiting-unneeded-time")
            .lowSince(NOW),
        when("continuing low keeps the window's start")
            .fleet(
                pool()
                    .with(ready("a").used("cpu", 2), ready("b").used("cpu", 1))
                    .util(0.05, 0.05)
                    .lowSince(FIVE_MIN_AGO))
            .expect(NONE, "waiting-unneeded-time")
            .lowSince(FIVE_MIN_AGO),
        when("a spike mid-window ends the window")
            .fleet(
                pool()
                    .with(ready("a").used("cpu", 12), ready("b").used("cpu", 4))
                    .util(0.65, 0.1)
                    .lowSince(FIVE_MIN_AGO))
            .expect(NONE, "utilization-in-range"),
        when("one resource above the scale-down threshold is enough to end the window")
            .fleet(pool().with(ready("a"), ready("b")).util(0.05, 0.61).lowSince(FIVE_MIN_AGO))
            .expect(NONE, "utilization-in-range"),
        when("a spike above the scale-up threshold mid-window scales up and ends the window")
            .fleet(pool().with(ready("a"), off("b")).util(0.9, 0.1).lowSince(FIVE_MIN_AGO))
            .expect(UP, "utilization")
            .on("b"),
        when("utilization turning unknown mid-window ends the window")
            .fleet(
                pool()
                    .with(ready("a"), ready("b"))
                    .unknownUtil("metrics missing")
                    .lowSince(FIVE_MIN_AGO))
            .expect(NONE, "utilization-unknown"),
        // --- added with the audit
        when("down triggers that all agree let the scale-down happen")
            .fleet(
                pool()
                    .with(ready("a").used("cpu", 2), ready("b").used("cpu", 1))
                    .util(0.05, 0.05)
                    .lowSince(HOUR_AGO)
                    .votes(
                        Set.of(), Set.of("idle-queue", "low-rps"), Set.of("idle-queue", "low-rps")))
            .expect(DOWN, "underutilized")
            .off("b")
            .lowSince(NOW),
        when("maxNodes counts nodes already powering on")
            .config(PoolConfig.builder().maxNodes(3).build())
            .fleet(oneComingUpThreeBigPending)
            .expect(UP, "pending-pods")
            .on("c"),
        when("a node powering on that reaches maxNodes holds the scale-up")
            .config(PoolConfig.builder().maxNodes(2).build())
            .fleet(oneComingUpHighUtil)
            .expect(NONE, "at-max-nodes"),
        when("memory pressure switches on the node with the most memory")
            .fleet(cpuBigAndMemBig().util(0.2, 0.9))
            .expect(UP, "utilization")
            .on("mem-big"),
        when("cpu pressure switches on the node with the most cpu")
            .fleet(cpuBigAndMemBig().util(0.9, 0.2))
            .expect(UP, "utilization")
            .on("cpu-big"),
        when("both: pending pods with utilization unknown do not scale up either")
            .config(PoolConfig.builder().scaleUpOn("both").build())
            .fleet(
                pool()
                    .with(ready("a"), off("b"))
                    .unknownUtil("Kubernetes API unavailable")
                    .pending(pod("p1", "cpu", 8)))
            .expect(NONE, "pending-awaits-utilization"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void decides(Case c) {
    ScalingDecision d = ScalingPolicy.decide(c.config, c.fleet.build(), NOW);
    assertThat(d.direction()).as(d.reason()).isEqualTo(c.direction);
    assertThat(d.powerOnIds()).as(d.reason()).isEqualTo(c.on);
    assertThat(d.powerOffIds()).as(d.reason()).isEqualTo(c.off);
    assertThat(d.reason()).startsWith(c.reason);
    assertThat(d.lowSince()).as("lowSince; " + d.reason()).isEqualTo(c.lowSince);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void isPure(Case c) {
    PoolSnapshot snapshot = c.fleet.build();
    assertThat(ScalingPolicy.decide(c.config, snapshot, NOW))
        .isEqualTo(ScalingPolicy.decide(c.config, snapshot, NOW));
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
