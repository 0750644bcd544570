package io.bamel.pool;

import io.bamel.inventory.model.PoolConfig;
import io.bamel.pool.ScalingDecision.Choice;
import io.bamel.pool.ScalingDecision.Direction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Decides, for one pool at one moment, whether to switch nodes on or off and which. Pure: the same
 * config, snapshot and time give the same decision; all I/O is the pool controller's.
 *
 * <p>In order:
 *
 * <ol>
 *   <li>Below {@code minNodes} (counting nodes coming up; not counting nodes in error, in
 *       maintenance, or stuck past their join timeout): switch on enough to reach it.
 *   <li>Scale up when the pool's pending pods or a utilization above {@code scaleUpThreshold} say
 *       so ({@code scaleUpOn}: either (default), pending, both), or any Prometheus trigger votes
 *       up. Size: with pending pods, the nodes first-fit decreasing needs to hold them after the
 *       room of nodes already coming up; else one. At least one, within {@code maxNodes} and {@code
 *       maxConcurrentTransitions} (transitions in flight count). A scale-up asked only by
 *       utilization or triggers (or by pending pods the nodes coming up will hold) adds nothing
 *       while nodes are coming up (their capacity is not in the utilization yet) nor within {@code
 *       scaleUpCooldown} of the last scale-up. With a {@code scaleUpTrendWindow}, a rising demand
 *       (requests on ready nodes plus pending ones, {@link DemandTrend}) whose projection {@code
 *       scaleUpLookahead} ahead exceeds {@code scaleUpThreshold} of the capacity ready and coming
 *       up asks for one node too, held like a utilization scale-up ({@code trend}).
 *   <li>Scale down when every considered resource has stayed below {@code scaleDownThreshold} for
 *       {@code scaleDownUnneededTime}, nothing is pending, no scale-up happened within {@code
 *       delayAfterScaleUp}, no transition is in flight, every down trigger agrees, {@code minNodes}
 *       stays met, and the utilization without the node stays below {@code scaleUpThreshold} (no
 *       flapping), nor, with a trend window, the demand projected {@code scaleUpLookahead} ahead.
 *       One node, or up to {@code maxConcurrentTransitions} nodes when they are empty.
 *   <li>With {@code consolidate}, the scale-down instead needs neither a low utilization nor its
 *       window (the other conditions stay): it switches off the node whose pods all fit in the
 *       other ready nodes' free room and that frees the most idle power per pod moved, or empty
 *       nodes together ({@link Consolidation}), when utilization without it stays below {@code
 *       scaleUpThreshold} (and, with a trend window, the demand projected ahead).
 *   <li>Utilization unknown: never scale down.
 * </ol>
 */
public final class ScalingPolicy {

  private ScalingPolicy() {}

  /** Decides for a pool; {@code config} may have absent values (defaults apply). */
  public static ScalingDecision decide(PoolConfig config, PoolSnapshot snapshot, Instant now) {
    PoolConfig c = config.withDefaults();
    List<String> resources = c.resources();
    List<Member> members = snapshot.members();
    // One pass over the members (a cycle decides for 10,000 of them), in their order.
    List<Member> capacity = new ArrayList<>(members.size());
    List<Member> comingUp = new ArrayList<>();
    List<Member> candidates = new ArrayList<>();
    int goingDown = 0;
    for (Member m : members) {
      if (m.isCapacity()) {
        capacity.add(m);
      }
      if (m.isComingUp()) {
        comingUp.add(m);
      }
      if (m.isGoingDown()) {
        goingDown++;
      }
      if (m.canBePoweredOn()) {
        candidates.add(m);
      }
    }
    int active = capacity.size();
    int inFlight = comingUp.size() + goingDown;
    Utilization util = snapshot.utilization();
    boolean low = util.known() && util.max(resources) < c.scaleDownThreshold();
    Instant lowSince = low ? (snapshot.lowSince() != null ? snapshot.lowSince() : now) : null;
    DecisionFactory out = new DecisionFactory(active, lowSince, util);

    int room = Math.min(c.maxNodes() - active, c.maxConcurrentTransitions() - inFlight);

    // 1. minNodes
    if (active < c.minNodes()) {
      int want = Math.min(c.minNodes() - active, room);
      if (want <= 0 || candidates.isEmpty()) {
        return out.none(
            "below-min-nodes",
            "pool has "
                + active
                + " of its minimum "
                + c.minNodes()
                + " nodes, but "
                + (candidates.isEmpty()
                    ? "no node can be switched on"
                    : "transitions are at the limit"));
      }
      Demand demand = Demand.ofPressure(mostPressed(util, resources), resources);
      List<Member> chosen = NodeSelector.powerOn(candidates, demand, capacity, want);
      return out.up("min-nodes", chosen, "pool below minNodes " + c.minNodes());
    }

    // 2. scale up
    boolean pending = !snapshot.pending().isEmpty();
    boolean busy = util.known() && util.max(resources) > c.scaleUpThreshold();
    boolean triggerUp = !snapshot.upVotes().isEmpty();
    boolean trendUp =
        trendOn(c)
            && util.known()
            && rising(c, snapshot, resources)
            && projectedRatio(c, snapshot, util.allocatable().plus(capacityOf(comingUp)), resources)
                > c.scaleUpThreshold();
    boolean wantUp =
        triggerUp
            || trendUp
            || switch (c.scaleUpOn()) {
              case PoolConfig.SCALE_UP_ON_PENDING -> pending;
              case PoolConfig.SCALE_UP_ON_BOTH -> pending && busy;
              default -> pending || busy;
            };
    if (wantUp) {
      return scaleUp(
          c,
          snapshot,
          out,
          candidates,
          capacity,
          comingUp,
          room,
          pending,
          busy,
          trendUp,
          resources,
          now);
    }

    // 3. scale down
    if (pending) {
      // Only scaleUpOn=both gets here: pods are pending, but utilization is not high (or unknown).
      return out.none(
          "pending-awaits-utilization",
          snapshot.pending().size()
              + " pods are pending, but scaleUpOn=both also needs a utilization above "
              + c.scaleUpThreshold()
              + " ("
              + (util.known()
                  ? "highest now " + round2(util.max(resources))
                  : "utilization unknown: " + util.reason())
              + ")");
    }
    if (!util.known()) {
      return out.none("utilization-unknown", "utilization unknown: " + util.reason());
    }
    boolean consolidate = Boolean.TRUE.equals(c.consolidate());
    if (!low && !consolidate) {
      return out.none("utilization-in-range", "utilization is above the scale-down threshold");
    }
    if (!consolidate && now.isBefore(lowSince.plus(c.scaleDownUnneededTime()))) {
      return out.none("waiting-unneeded-time", "utilization low since " + lowSince);
    }
    if (snapshot.lastScaleUp() != null
        && now.isBefore(snapshot.lastScaleUp().plus(c.delayAfterScaleUp()))) {
      return out.none("cooldown-after-scale-up", "scaled up at " + snapshot.lastScaleUp());
    }
    if (!snapshot.downVotes().containsAll(snapshot.downTriggers())) {
      return out.none("triggers-disagree", "not every down trigger votes down");
    }
    if (inFlight > 0) {
      return out.none("transitions-in-flight", inFlight + " nodes are changing state");
    }
    if (active - 1 < c.minNodes()) {
      return out.none("at-min-nodes", "pool is at its minimum of " + c.minNodes() + " nodes");
    }
    if (consolidate) {
      return consolidate(c, snapshot, out, active, resources, low ? now : null);
    }
    List<Member> order = NodeSelector.powerOff(members, resources);
    if (order.isEmpty()) {
      return out.none("no-removable-node", "no ready node may be switched off");
    }
    List<Member> chosen = new ArrayList<>();
    Resources removed = Resources.NONE;
    boolean trendHeld = false;
    for (Member m : order) {
      if (!chosen.isEmpty() && !m.isEmpty()) {
        break;
      }
      if (active - chosen.size() - 1 < c.minNodes()) {
        break;
      }
      Utilization without = util.without(removed.plus(m.capacity()));
      if (without.max(resources) >= c.scaleUpThreshold()) {
        break;
      }
      if (trendOn(c)
          && projectedRatio(
                  c, snapshot, util.allocatable().minus(removed.plus(m.capacity())), resources)
              >= c.scaleUpThreshold()) {
        trendHeld = true;
        break;
      }
      chosen.add(m);
      removed = removed.plus(m.capacity());
      if (!m.isEmpty() || chosen.size() >= c.maxConcurrentTransitions()) {
        break;
      }
    }
    if (chosen.isEmpty()) {
      return trendHeld
          ? out.none(
              "demand-rising",
              "without any candidate, the demand expected within "
                  + c.scaleUpLookahead()
                  + " would exceed the scale-up threshold")
          : out.none(
              "would-flap",
              "without any candidate, utilization would exceed the scale-up threshold");
    }
    return out.down(chosen, now);
  }

  /**
   * Scale-down by consolidation ({@link Consolidation}): the node whose pods all fit on the other
   * ready nodes and that frees the most idle power per pod moved, or empty nodes together.
   */
  private static ScalingDecision consolidate(
      PoolConfig c,
      PoolSnapshot snapshot,
      DecisionFactory out,
      int active,
      List<String> resources,
      Instant lowSinceAfter) {
    Utilization util = snapshot.utilization();
    Consolidation.Plan plan =
        Consolidation.choose(
            snapshot.members(),
            resources,
            util,
            c.scaleUpThreshold(),
            Math.min(c.maxConcurrentTransitions(), active - c.minNodes()),
            removed ->
                trendOn(c)
                    && projectedRatio(c, snapshot, util.allocatable().minus(removed), resources)
                        >= c.scaleUpThreshold());
    if (plan.nodes().isEmpty()) {
      return switch (plan.held()) {
        case "would-flap" ->
            out.none(
                "would-flap",
                "without any candidate, utilization would exceed the scale-up threshold");
        case "demand-rising" ->
            out.none(
                "demand-rising",
                "without any candidate, the demand expected within "
                    + c.scaleUpLookahead()
                    + " would exceed the scale-up threshold");
        default ->
            out.none("nothing-to-consolidate", "no node's pods all fit on the other ready nodes");
      };
    }
    List<Choice> choices = new ArrayList<>();
    for (Member m : plan.nodes()) {
      choices.add(
          new Choice(
              m.id(),
              m.pods().isEmpty()
                  ? "consolidated: no pod to move"
                  : "consolidated: its " + m.pods().size() + " pods fit on the other ready nodes"));
    }
    String reason =
        plan.moved() == 0
            ? "consolidation: " + plan.nodes().size() + " nodes with no pod to move"
            : "consolidation: the "
                + plan.moved()
                + " pods of "
                + plan.nodes().get(0).id()
                + " fit on the other ready nodes";
    return out.down(choices, reason, lowSinceAfter);
  }

  private static ScalingDecision scaleUp(
      PoolConfig c,
      PoolSnapshot snapshot,
      DecisionFactory out,
      List<Member> candidates,
      List<Member> capacity,
      List<Member> comingUp,
      int transitionRoom,
      boolean pending,
      boolean busy,
      boolean trendUp,
      List<String> resources,
      Instant now) {
    String why = pending ? "pending-pods" : busy ? "utilization" : trendUp ? "trend" : "trigger";
    if (c.maxNodes() - out.active <= 0) {
      return out.none("at-max-nodes", "pool is at its maximum of " + c.maxNodes() + " nodes");
    }
    if (transitionRoom <= 0) {
      return out.none(
          "transitions-at-limit",
          "maxConcurrentTransitions " + c.maxConcurrentTransitions() + " reached");
    }
    if (candidates.isEmpty()) {
      return out.none("no-candidates", "no node of the pool can be switched on");
    }
    Resources typical = typicalCapacity(candidates);
    if (pending) {
      Demand demand = Demand.ofPending(snapshot.pending(), typical);
      List<Member> ranked = NodeSelector.powerOn(candidates, demand, capacity, candidates.size());
      List<Resources> room = new java.util.ArrayList<>();
      comingUp.forEach(m -> room.add(m.capacity()));
      // A node that just became ready: the scheduler may not have placed pods on it yet.
      snapshot.members().stream()
          .filter(m -> m.settling() && m.isReady())
          .forEach(m -> room.add(m.capacity().minus(m.requested())));
      BinPacking.Result packed = BinPacking.pack(snapshot.pending(), room, ranked, typical);
      List<Member> chosen = packed.chosen();
      if (chosen.isEmpty()) {
        if (!packed.unfit().isEmpty() && packed.unfit().size() == snapshot.pending().size()) {
          return out.none("pending-pods-fit-no-node", "no candidate can hold the pending pods");
        }
        if (!busy && !trendUp && snapshot.upVotes().isEmpty()) {
          return out.none("waiting-for-nodes", "nodes coming up will hold the pending pods");
        }
        ScalingDecision held = holdPressureScaleUp(c, snapshot, out, comingUp, now);
        if (held != null) {
          return held;
        }
        chosen = ranked.subList(0, 1);
      }
      return out.up(
          why, chosen.subList(0, Math.min(transitionRoom, chosen.size())), describe(snapshot));
    }
    ScalingDecision held = holdPressureScaleUp(c, snapshot, out, comingUp, now);
    if (held != null) {
      return held;
    }
    Demand demand = Demand.ofPressure(mostPressed(snapshot.utilization(), resources), resources);
    List<Member> chosen = NodeSelector.powerOn(candidates, demand, capacity, 1);
    String detail =
        busy
            ? "utilization of " + demand.pressure() + " is high"
            : trendUp
                ? "demand rising: expected above the scale-up threshold within "
                    + c.scaleUpLookahead()
                : "triggers voting up: "
                    + String.join(", ", new java.util.TreeSet<>(snapshot.upVotes()));
    return out.up(why, chosen, detail);
  }

  /**
   * A scale-up asked by utilization or a trigger (not by pending pods the nodes coming up cannot
   * hold) waits for the nodes already on their way, whose capacity the utilization does not show
   * yet, and for {@code scaleUpCooldown} after the last scale-up; null when it may go ahead.
   */
  private static ScalingDecision holdPressureScaleUp(
      PoolConfig c,
      PoolSnapshot snapshot,
      DecisionFactory out,
      List<Member> comingUp,
      Instant now) {
    if (!comingUp.isEmpty()) {
      return out.none(
          "capacity-on-its-way",
          comingUp.size() + " nodes are coming up; their capacity counts before adding more");
    }
    if (snapshot.lastScaleUp() != null
        && now.isBefore(snapshot.lastScaleUp().plus(c.scaleUpCooldown()))) {
      return out.none(
          "scale-up-cooldown",
          "scaled up at " + snapshot.lastScaleUp() + ", scaleUpCooldown " + c.scaleUpCooldown());
    }
    return null;
  }

  /** Whether the pool scales on its demand's trend ({@code scaleUpTrendWindow} above zero). */
  private static boolean trendOn(PoolConfig c) {
    return c.scaleUpTrendWindow().isPositive() && c.scaleUpLookahead().isPositive();
  }

  /**
   * Whether a considered resource's demand has been rising over samples spanning at least half the
   * trend window (fewer, and the trend is not trusted yet).
   */
  private static boolean rising(PoolConfig c, PoolSnapshot snapshot, List<String> resources) {
    Resources rise = snapshot.demand().risePerSecond(c.scaleUpTrendWindow().dividedBy(2));
    for (String r : resources) {
      if (rise.get(r) > 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * The highest ratio, over the considered resources, of the demand expected {@code
   * scaleUpLookahead} ahead ({@link DemandTrend#projected}: now plus the rise at the window's rate)
   * to {@code capacity}; 0 when the trend is off or has no samples.
   */
  private static double projectedRatio(
      PoolConfig c, PoolSnapshot snapshot, Resources capacity, List<String> resources) {
    if (!trendOn(c)) {
      return 0;
    }
    Resources expected =
        snapshot.demand().projected(c.scaleUpLookahead(), c.scaleUpTrendWindow().dividedBy(2));
    double max = 0;
    for (String r : resources) {
      double need = expected.get(r);
      if (need <= 0) {
        continue;
      }
      double has = capacity.get(r);
      max = Math.max(max, has <= 0 ? Double.POSITIVE_INFINITY : need / has);
    }
    return max;
  }

  private static Resources capacityOf(List<Member> members) {
    Resources.Sum sum = new Resources.Sum();
    members.forEach(m -> sum.add(m.capacity()));
    return sum.build();
  }

  private static String round2(double v) {
    return String.format(java.util.Locale.ROOT, "%.2f", v);
  }

  private static String describe(PoolSnapshot snapshot) {
    return snapshot.pending().size() + " pending pods";
  }

  private static String mostPressed(Utilization util, List<String> resources) {
    return resources.stream()
        .max(
            Comparator.<String>comparingDouble(util::ratio)
                .thenComparing(Comparator.reverseOrder()))
        .orElse("cpu");
  }

  private static Resources typicalCapacity(List<Member> members) {
    Resources sum = Resources.sum(members.stream().map(Member::capacity).toList());
    java.util.Map<String, Double> avg = new java.util.HashMap<>();
    sum.amounts().forEach((k, v) -> avg.put(k, v / members.size()));
    return new Resources(avg);
  }

  /** Builds decisions that share the pool's counts and window. */
  private static final class DecisionFactory {
    final int active;
    final Instant lowSince;
    final Utilization util;

    DecisionFactory(int active, Instant lowSince, Utilization util) {
      this.active = active;
      this.lowSince = lowSince;
      this.util = util;
    }

    ScalingDecision none(String reason, String detail) {
      return new ScalingDecision(
          Direction.NONE,
          reason + ": " + detail,
          List.of(),
          List.of(),
          active,
          lowSince,
          util.known(),
          util.reason());
    }

    ScalingDecision up(String reason, List<Member> nodes, String detail) {
      List<Choice> choices =
          nodes.stream().map(m -> new Choice(m.id(), reason + ": " + detail)).toList();
      return new ScalingDecision(
          Direction.UP,
          reason + ": " + detail,
          choices,
          List.of(),
          active + nodes.size(),
          lowSince,
          util.known(),
          util.reason());
    }

    ScalingDecision down(List<Member> nodes, Instant now) {
      List<Choice> choices =
          nodes.stream()
              .map(
                  m ->
                      new Choice(
                          m.id(),
                          m.isEmpty() ? "underutilized: empty" : "underutilized: least used"))
              .toList();
      // The low-utilization window starts again after a scale-down.
      return down(choices, "underutilized: below the scale-down threshold", now);
    }

    /**
     * Switches off {@code choices}, leaving the low-utilization window at {@code lowSinceAfter}.
     */
    ScalingDecision down(List<Choice> choices, String reason, Instant lowSinceAfter) {
      return new ScalingDecision(
          Direction.DOWN,
          reason,
          List.of(),
          choices,
          active - choices.size(),
          lowSinceAfter,
          util.known(),
          util.reason());
    }
  }
}
