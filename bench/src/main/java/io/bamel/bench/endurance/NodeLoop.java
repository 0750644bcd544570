package io.bamel.bench.endurance;

import io.bamel.inventory.model.NodeReadings;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.NodeTimeouts;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.node.Action;
import io.bamel.node.Decision;
import io.bamel.node.KubeView;
import io.bamel.node.NodeStateMachine;
import io.bamel.node.Observation;
import io.bamel.node.PowerReading;
import io.bamel.node.ReadingsPolicy;
import io.bamel.power.BmcPowerState;
import java.time.Instant;
import java.util.Map;

/**
 * The node controller's etcd writes for one node, as {@code NodeReconciler} makes them, on the
 * simulated clock: the BMC's power state and Kubernetes' view of the node go into the real {@link
 * NodeStateMachine}; a decision to act is written ahead (status and event) before the simulated BMC
 * is called, a Kubernetes action is done before the status recording it is written, and a status is
 * written only when it changed or carries an event. At a periodic sync of a node that is on, its
 * power draw is read and written when the {@link ReadingsPolicy} says so. Writes go through {@link
 * EtcdInventory}, so they carry exactly bamel's keys, guards and event trimming.
 */
final class NodeLoop {

  private static final NodeTimeouts TIMEOUTS = NodeStateMachine.timeouts(null, null);

  private final EtcdInventory store;
  private final ReadingsPolicy policy;
  private final WriteCounts counts;

  NodeLoop(EtcdInventory store, ReadingsPolicy policy, WriteCounts counts) {
    this.store = store;
    this.policy = policy;
    this.counts = counts;
  }

  /**
   * One reconciliation of {@code node} at {@code now}; {@code sync}: a periodic sync, which also
   * reads the power draw ({@code utilization}: its pool's, for the simulated watts).
   */
  void reconcile(SimNode node, Instant now, boolean sync, double utilization) {
    Machine machine = node.machine;
    machine.advance(now);
    BmcPowerState power = machine.power();
    if (sync && power == BmcPowerState.ON) {
      counts.readingsTaken.increment();
      double watts = machine.watts(now, utilization);
      if (policy.shouldWrite(node.readings, watts, now)) {
        NodeReadings readings = new NodeReadings(now, watts, null, null);
        store.putReadings(node.id, readings, null);
        node.readings = readings;
        counts.readings.increment();
      }
    }
    Inputs inputs =
        new Inputs(machine.version(), machine.ready(now), node.specRevision, node.statusRevision);
    NodeState state = node.state();
    if (inputs.equals(node.decidedFrom) && (state == NodeState.OFF || state == NodeState.READY)) {
      // Off and ready decide from what they see, not from the time: the same inputs give the
      // same decision, which wrote nothing (or it would have moved the status revision).
      return;
    }
    KubeView kube = machine.kube(now, NodeStateMachine.needsPods(node.spec, node.status));
    Decision d =
        NodeStateMachine.decide(
            new Observation(
                node.spec,
                node.specRevision,
                node.status,
                PowerReading.of(power),
                kube,
                TIMEOUTS,
                Map.of(),
                now));
    Action action = d.action();
    if (action.isPower()) {
      write(node, d);
      switch (action.power()) {
        case POWER_ON -> machine.powerOn(now);
        case POWER_OFF -> machine.powerOff(now, false);
        case POWER_OFF_FORCE -> machine.powerOff(now, true);
        case POWER_CYCLE -> {
          machine.powerOff(now, true);
          machine.advance(now);
          machine.powerOn(now);
        }
      }
      return;
    }
    switch (action.kind()) {
      case DRAIN -> machine.drain(now);
      case ADMIT -> machine.label(action.labels(), true);
      case LABEL -> machine.label(action.labels(), false);
      case UNCORDON -> machine.label(Map.of(), true);
      default -> {}
    }
    if (d.event() != null || !d.next().equals(node.status)) {
      write(node, d);
    }
    node.decidedFrom =
        action.kind() == Action.Kind.NONE
            ? new Inputs(
                machine.version(), machine.ready(now), node.specRevision, node.statusRevision)
            : null;
  }

  /** What a decision of an off or ready node depends on besides the node's own keys. */
  private record Inputs(long machine, boolean ready, long specRevision, long statusRevision) {}

  private void write(SimNode node, Decision d) {
    NodeStatus next = d.next();
    long revision = store.putStatus(node.id, node.statusRevision, next, d.event(), null);
    if (revision != node.statusRevision) {
      counts.status.increment();
    }
    node.status = next;
    node.statusRevision = revision;
  }
}
