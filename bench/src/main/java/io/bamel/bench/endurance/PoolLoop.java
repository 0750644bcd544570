package io.bamel.bench.endurance;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.PoolCondition;
import io.bamel.inventory.model.PoolStatus;
import io.bamel.inventory.model.ResourceCapacity;
import io.bamel.inventory.model.ScalingNode;
import io.bamel.inventory.store.DesiredPowerChange;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.pool.CyclePlan;
import io.bamel.pool.PoolMemory;
import io.bamel.pool.PoolStatusWrites;
import io.bamel.pool.PoolStatuses;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pool controller's etcd writes for one pool in one cycle: a decision ({@link PoolScaler})
 * switching nodes is one {@link EtcdInventory#applyPoolDecision} transaction (each node's desired
 * power with its event, and the pool status); otherwise the pool status alone is written when the
 * pool controller's own rule ({@link PoolStatusWrites#due}) says so: its utilization moves with the
 * load every cycle, and is written only beyond the rule's tolerance or age. The status has the
 * shape {@code PoolStatuses.next} gives it: counts, the nodes in transition, capacities,
 * utilization, conditions, the memory and the last decision. Not thread-safe: one cycle at a time
 * per pool.
 */
final class PoolLoop {

  private static final ResourceCapacity PER_NODE = ResourceCapacity.of("64", "512Gi", null);

  final String name;
  final List<SimNode> members;
  private final DailyLoad load;
  private final int minNodes;
  private final EtcdInventory store;
  private final WriteCounts counts;
  private final Instant epoch;
  private final PoolStatusWrites statusWrites;
  private PoolStatus written;
  private Instant writtenAt;
  private PoolScaler.Memory memory = PoolScaler.Memory.NONE;
  private Map<String, Object> lastDecision;
  private Instant lastScaleTime;
  private double utilization;

  PoolLoop(
      String name,
      List<SimNode> members,
      DailyLoad load,
      EtcdInventory store,
      WriteCounts counts,
      Instant epoch,
      PoolStatusWrites statusWrites) {
    this.name = name;
    this.members = List.copyOf(members);
    this.load = load;
    this.minNodes = Math.max(1, members.size() / 10);
    this.store = store;
    this.counts = counts;
    this.epoch = epoch;
    this.statusWrites = statusWrites;
  }

  /** The pool's utilization as last decided (the simulated machines' load follows it). */
  double utilization() {
    return utilization;
  }

  /** The share of the pool's nodes its workload needs at {@code now}. */
  double demand(Instant now) {
    return load.at((now.getEpochSecond() - epoch.getEpochSecond()) / 60.0);
  }

  /**
   * One cycle at {@code now}.
   *
   * @return the nodes switched (to reconcile now, as the node controller's watch would)
   */
  List<SimNode> cycle(Instant now) {
    int ready = 0;
    int coming = 0;
    int going = 0;
    List<SimNode> off = new ArrayList<>();
    List<SimNode> on = new ArrayList<>();
    for (SimNode n : members) {
      NodeState state = n.state();
      if (n.desiredOn()) {
        if (state == NodeState.READY) {
          ready++;
          on.add(n);
        } else {
          coming++;
        }
      } else if (state == NodeState.OFF) {
        off.add(n);
      } else {
        going++;
      }
    }
    double demandNodes = demand(now) * members.size();
    PoolScaler.Verdict verdict =
        PoolScaler.decide(
            new PoolScaler.Counts(members.size(), ready, coming, going, off.size(), minNodes),
            demandNodes,
            memory,
            now);
    memory = verdict.memory();
    utilization = verdict.utilization();
    List<SimNode> chosen = new ArrayList<>();
    DesiredPower target = null;
    if (verdict.powerOn() > 0) {
      chosen.addAll(off.subList(0, verdict.powerOn()));
      target = DesiredPower.ON;
    } else if (verdict.powerOff() > 0) {
      on.sort(Comparator.comparing((SimNode n) -> n.id).reversed());
      chosen.addAll(on.subList(0, verdict.powerOff()));
      target = DesiredPower.OFF;
    }
    if (target != null) {
      lastScaleTime = now;
      lastDecision = decision(verdict, chosen, target, now);
    }
    PoolStatus status =
        status(ready, coming, going, (int) Math.ceil(demandNodes / PoolScaler.AIM), now);
    if (chosen.isEmpty()) {
      if (statusWrites.due(written, writtenAt, status, now)) {
        store.putPoolStatus(name, status, null);
        written = status;
        writtenAt = now;
        counts.poolStatus.increment();
      } else {
        counts.poolStatusSkipped.increment();
      }
      return List.of();
    }
    List<DesiredPowerChange> changes = new ArrayList<>();
    for (SimNode n : chosen) {
      changes.add(
          new DesiredPowerChange(
              n.id,
              n.specRevision,
              target,
              NodeEvent.change(
                  now,
                  target == DesiredPower.ON ? "scale-up" : "scale-down",
                  "pool " + name + " sets power " + target.json() + ": " + verdict.reason(),
                  CyclePlan.PRINCIPAL,
                  null)));
    }
    long revision = store.applyPoolDecision(name, changes, status, null);
    written = status;
    writtenAt = now;
    counts.decisions.increment();
    counts.switched.add(chosen.size());
    for (SimNode n : chosen) {
      NodeSpec spec = n.spec.toBuilder().desiredPower(target).build();
      n.spec = spec;
      n.specRevision = revision;
    }
    return chosen;
  }

  private Map<String, Object> decision(
      PoolScaler.Verdict verdict, List<SimNode> chosen, DesiredPower target, Instant now) {
    List<String> ids = chosen.stream().map(n -> n.id).toList();
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("direction", target == DesiredPower.ON ? "up" : "down");
    d.put("reason", verdict.reason());
    d.put("powerOn", target == DesiredPower.ON ? ids : List.of());
    d.put("powerOff", target == DesiredPower.OFF ? ids : List.of());
    d.put("dryRun", false);
    d.put("since", now.toString());
    return d;
  }

  private PoolStatus status(int ready, int coming, int going, int desired, Instant now) {
    List<ScalingNode> scaling = new ArrayList<>();
    for (SimNode n : members) {
      NodeState state = n.state();
      boolean up = n.desiredOn() && state != NodeState.READY;
      boolean down = !n.desiredOn() && state != NodeState.OFF;
      if (up || down) {
        scaling.add(
            new ScalingNode(
                n.id,
                up ? "power-on" : "power-off",
                n.status == null ? now : n.status.stateSince(),
                state,
                PER_NODE,
                up ? "scale-up: utilization above 0.70" : "scale-down: utilization below 0.30",
                null));
      }
    }
    Map<String, Object> extensions =
        new LinkedHashMap<>(new PoolMemory(memory.lowSince(), memory.lastScaleUp()).into(Map.of()));
    if (lastDecision != null) {
      extensions.put(PoolStatuses.LAST_DECISION, lastDecision);
    }
    return PoolStatus.builder()
        .readyNodes(ready)
        .pendingNodes(coming)
        .desiredNodes(Math.min(members.size(), Math.max(minNodes, desired)))
        .scalingNodes(scaling)
        .availableResources(times(members.size()))
        .activeResources(times(ready))
        .pendingResources(ResourceCapacity.NONE)
        .utilization(Map.of("cpu", utilization, "memory", Math.round(utilization * 8e3) / 1e4))
        .lastScaleTime(lastScaleTime)
        .conditions(
            List.of(
                new PoolCondition(
                    PoolStatuses.UTILIZATION_KNOWN,
                    "True",
                    "Measured",
                    "requests over allocatable",
                    epoch,
                    null),
                new PoolCondition(
                    PoolStatuses.TRIGGERS_AVAILABLE,
                    "True",
                    "Evaluated",
                    "every trigger was evaluated",
                    epoch,
                    null),
                new PoolCondition(
                    PoolStatuses.DRY_RUN,
                    "False",
                    "Acting",
                    "decisions are executed",
                    epoch,
                    null)))
        .extensions(extensions)
        .build();
  }

  private static ResourceCapacity times(int nodes) {
    return ResourceCapacity.of(String.valueOf(64 * nodes), (512 * nodes) + "Gi", null);
  }
}
