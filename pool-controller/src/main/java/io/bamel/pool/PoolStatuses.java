package io.bamel.pool;

import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.PoolCondition;
import io.bamel.inventory.model.PoolStatus;
import io.bamel.inventory.model.ScalingNode;
import io.bamel.pool.ScalingDecision.Choice;
import io.bamel.pool.ScalingDecision.Direction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The pool status a decision leaves behind. Pure.
 *
 * <ul>
 *   <li>Counts: {@code readyNodes}, {@code pendingNodes} (coming up), {@code desiredNodes}.
 *   <li>{@code scalingNodes}: the nodes the decision switches, with its reasons, and those still in
 *       transition from earlier decisions (keeping their {@code since} and reason). In a dry run
 *       only the decision's nodes, their reasons prefixed {@code dry-run: }. A node chosen again
 *       for the same action (a dry run repeating its decision) keeps its {@code since}.
 *   <li>Resources: available (members not in error or maintenance), active (ready members), pending
 *       (requests of the pending pods); utilization per considered resource when known.
 *   <li>{@code lastScaleTime}: now when the decision switched nodes (not in a dry run).
 *   <li>Conditions ({@code lastTransitionTime} kept while the status does not change): {@code
 *       UtilizationKnown}, {@code TriggersAvailable}, {@code DryRun}, {@code PowerOnCandidates}
 *       (False, reason {@code AllExcluded}, when the pool has nodes it would switch on but every
 *       one is excluded: BMC unreachable at the last sync, in error, in maintenance, or no driver
 *       can switch it on; the message counts each reason).
 *   <li>Fields beyond the schema: the {@link PoolMemory}, {@value #LAST_DECISION} (direction,
 *       reason, nodes, dry run, and {@code since}: when this same decision was first made) and
 *       {@value #PENDING_PODS} (how many unschedulable pods the pool serves; the console shows it).
 * </ul>
 *
 * <p>A dry run leaves no trace of a scale it did not make: it neither advances the memory's last
 * scale-up nor restarts the low-utilization window, so the same inputs give the same status cycle
 * after cycle (nothing to write), and turning the dry run off starts no cooldown.
 */
public final class PoolStatuses {

  /** The status field recording the last decision. */
  public static final String LAST_DECISION = "lastDecision";

  /** The status field counting the unschedulable pods the pool serves. */
  public static final String PENDING_PODS = "pendingPods";

  /** Condition type: whether utilization could be measured. */
  public static final String UTILIZATION_KNOWN = "UtilizationKnown";

  /** Condition type: whether every Prometheus trigger could be evaluated. */
  public static final String TRIGGERS_AVAILABLE = "TriggersAvailable";

  /** Condition type: whether the pool has a node it may switch on, when it has any to consider. */
  public static final String POWER_ON_CANDIDATES = "PowerOnCandidates";

  /** Condition type: whether decisions are only recorded. */
  public static final String DRY_RUN = "DryRun";

  /** The prefix of the reasons of a dry run's scaling nodes. */
  public static final String DRY_RUN_PREFIX = "dry-run: ";

  private PoolStatuses() {}

  /**
   * The memory the decision leaves: its low-utilization window, and now if it scaled up. A dry-run
   * decision switched nothing: the last scale-up stays, and a dry-run scale-down does not restart
   * the window.
   */
  public static PoolMemory memoryAfter(
      PoolMemory before, ScalingDecision decision, boolean dryRun, Instant now) {
    if (dryRun) {
      Instant lowSince = decision.lowSince();
      if (decision.direction() == Direction.DOWN) {
        lowSince = before.lowSince() != null ? before.lowSince() : now;
      }
      return new PoolMemory(lowSince, before.lastScaleUp());
    }
    return new PoolMemory(
        decision.lowSince(), decision.direction() == Direction.UP ? now : before.lastScaleUp());
  }

  /**
   * Whether {@code decision} is the one {@code previous} records as its last: same direction,
   * reason word, nodes and dry-run flag (the reason's detail may differ). A dry run logs and counts
   * a decision only when it is not.
   */
  public static boolean sameDecision(
      PoolStatus previous, ScalingDecision decision, boolean dryRun) {
    if (previous == null || !(previous.extensions().get(LAST_DECISION) instanceof Map<?, ?> last)) {
      return false;
    }
    Object reason = last.get("reason");
    return direction(decision).equals(last.get("direction"))
        && reason instanceof String text
        && reasonWord(text).equals(reasonWord(decision.reason()))
        && decision.powerOnIds().equals(last.get("powerOn"))
        && decision.powerOffIds().equals(last.get("powerOff"))
        && Boolean.valueOf(dryRun).equals(last.get("dryRun"));
  }

  /**
   * The status after {@code decision}.
   *
   * @param previous the status before (null: none)
   * @param resources the considered resources
   */
  public static PoolStatus next(
      PoolStatus previous,
      PoolSnapshot snapshot,
      ScalingDecision decision,
      Votes votes,
      PoolMemory memory,
      List<String> resources,
      boolean dryRun,
      Instant now) {
    PoolStatus prev = previous == null ? PoolStatus.builder().build() : previous;
    List<Member> members = snapshot.members();
    int ready = 0;
    int comingUp = 0;
    Resources.Sum available = new Resources.Sum();
    Resources.Sum active = new Resources.Sum();
    for (Member m : members) {
      if (!m.maintenance() && m.state() != NodeState.ERROR) {
        available.add(m.capacity());
      }
      if (m.isReady()) {
        ready++;
        active.add(m.capacity());
      }
      if (m.isComingUp()) {
        comingUp++;
      }
    }
    if (!dryRun) {
      comingUp += decision.powerOn().size();
    }
    Resources pending =
        Resources.sum(snapshot.pending().stream().map(PendingPod::requests).toList());
    Map<String, Double> utilization = new TreeMap<>();
    Utilization util = snapshot.utilization();
    if (util.known()) {
      for (String r : resources) {
        double ratio = util.ratio(r);
        if (Double.isFinite(ratio)) {
          utilization.put(r, Math.round(ratio * 1e4) / 1e4);
        }
      }
    }
    boolean acted = decision.direction() != Direction.NONE && !dryRun;
    Map<String, Object> extensions = new LinkedHashMap<>(memory.into(prev.extensions()));
    extensions.put(LAST_DECISION, lastDecision(prev, decision, dryRun, now));
    extensions.put(PENDING_PODS, snapshot.pending().size());
    return prev.toBuilder()
        .readyNodes(ready)
        .pendingNodes(comingUp)
        .desiredNodes(decision.desiredNodes())
        .scalingNodes(scalingNodes(prev, members, decision, dryRun, now))
        .availableResources(Capacities.of(available.build()))
        .activeResources(Capacities.of(active.build()))
        .pendingResources(Capacities.of(pending))
        .utilization(utilization)
        .lastScaleTime(acted ? now : prev.lastScaleTime())
        .conditions(conditions(prev, decision, votes, members, dryRun, now))
        .extensions(extensions)
        .build();
  }

  /** The first word of a decision's reason ({@code pending-pods: 3 pending pods}). */
  public static String reasonWord(String reason) {
    int colon = reason.indexOf(':');
    return colon < 0 ? reason : reason.substring(0, colon);
  }

  private static Map<String, Object> lastDecision(
      PoolStatus prev, ScalingDecision d, boolean dryRun, Instant now) {
    Object since = now.toString();
    if (sameDecision(prev, d, dryRun)
        && ((Map<?, ?>) prev.extensions().get(LAST_DECISION)).get("since") instanceof String s) {
      since = s;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("direction", direction(d));
    out.put("reason", d.reason());
    out.put("powerOn", d.powerOnIds());
    out.put("powerOff", d.powerOffIds());
    out.put("dryRun", dryRun);
    out.put("since", since);
    return out;
  }

  private static String direction(ScalingDecision d) {
    return d.direction().name().toLowerCase(java.util.Locale.ROOT);
  }

  private static List<ScalingNode> scalingNodes(
      PoolStatus prev, List<Member> members, ScalingDecision d, boolean dryRun, Instant now) {
    Map<String, ScalingNode> before = new HashMap<>();
    for (ScalingNode s : prev.scalingNodes()) {
      before.put(s.node() + "/" + s.action(), s);
    }
    Map<String, ScalingNode> out = new TreeMap<>();
    if (!dryRun) {
      for (Member m : members) {
        String action = m.isComingUp() ? "power-on" : m.isGoingDown() ? "power-off" : null;
        if (action != null) {
          ScalingNode old = before.get(m.id() + "/" + action);
          out.put(
              m.id(),
              new ScalingNode(
                  m.id(),
                  action,
                  old == null ? now : old.since(),
                  m.state(),
                  Capacities.of(m.capacity()),
                  old == null ? "in transition" : old.reason(),
                  null));
        }
      }
    }
    if (!d.powerOn().isEmpty() || !d.powerOff().isEmpty()) {
      Map<String, Member> byId = new HashMap<>();
      members.forEach(m -> byId.put(m.id(), m));
      addChoices(out, before, byId, d.powerOn(), "power-on", dryRun, now);
      addChoices(out, before, byId, d.powerOff(), "power-off", dryRun, now);
    }
    return new ArrayList<>(out.values());
  }

  private static void addChoices(
      Map<String, ScalingNode> out,
      Map<String, ScalingNode> before,
      Map<String, Member> byId,
      List<Choice> choices,
      String action,
      boolean dryRun,
      Instant now) {
    for (Choice c : choices) {
      Member m = byId.get(c.node());
      ScalingNode old = before.get(c.node() + "/" + action);
      // The same choice made again (a dry run repeating itself) keeps the time it was first made.
      boolean again =
          old != null
              && old.since() != null
              && old.reason() != null
              && old.reason().startsWith(DRY_RUN_PREFIX) == dryRun;
      out.put(
          c.node(),
          new ScalingNode(
              c.node(),
              action,
              again ? old.since() : now,
              m == null ? null : m.state(),
              m == null ? null : Capacities.of(m.capacity()),
              dryRun ? DRY_RUN_PREFIX + c.reason() : c.reason(),
              null));
    }
  }

  private static List<PoolCondition> conditions(
      PoolStatus prev,
      ScalingDecision d,
      Votes votes,
      List<Member> members,
      boolean dryRun,
      Instant now) {
    Map<String, PoolCondition> old = new HashMap<>();
    prev.conditions().forEach(c -> old.put(c.type(), c));
    List<PoolCondition> out = new ArrayList<>();
    out.add(
        d.utilizationKnown()
            ? cond(old, UTILIZATION_KNOWN, true, "Measured", "requests over allocatable", now)
            : cond(old, UTILIZATION_KNOWN, false, "Unknown", d.utilizationReason(), now));
    out.add(
        votes.available()
            ? cond(old, TRIGGERS_AVAILABLE, true, "Evaluated", "every trigger was evaluated", now)
            : cond(old, TRIGGERS_AVAILABLE, false, "QueryFailed", votes.reason(), now));
    out.add(
        dryRun
            ? cond(old, DRY_RUN, true, "DryRun", "decisions are recorded, not executed", now)
            : cond(old, DRY_RUN, false, "Acting", "decisions are executed", now));
    out.add(powerOnCandidates(old, members, now));
    return out;
  }

  private static PoolCondition powerOnCandidates(
      Map<String, PoolCondition> old, List<Member> members, Instant now) {
    int eligible = 0;
    Map<String, Integer> excluded = new TreeMap<>();
    for (Member m : members) {
      if (!m.wouldBeCandidate()) {
        continue;
      }
      String why = m.powerOnExclusion();
      if (why == null) {
        eligible++;
      } else {
        excluded.merge(why, 1, Integer::sum);
      }
    }
    if (eligible == 0 && !excluded.isEmpty()) {
      List<String> parts = new ArrayList<>();
      excluded.forEach((why, n) -> parts.add(n + " " + why));
      return cond(
          old,
          POWER_ON_CANDIDATES,
          false,
          "AllExcluded",
          "no node may be switched on: " + String.join(", ", parts),
          now);
    }
    return eligible > 0
        ? cond(
            old,
            POWER_ON_CANDIDATES,
            true,
            "Available",
            eligible + " nodes may be switched on",
            now)
        : cond(old, POWER_ON_CANDIDATES, true, "NoneOff", "no node of the pool is off", now);
  }

  private static PoolCondition cond(
      Map<String, PoolCondition> old,
      String type,
      boolean status,
      String reason,
      String message,
      Instant now) {
    String s = status ? "True" : "False";
    PoolCondition before = old.get(type);
    Instant since =
        before != null && s.equals(before.status()) && before.lastTransitionTime() != null
            ? before.lastTransitionTime()
            : now;
    return new PoolCondition(type, s, reason, message, since, null);
  }
}
