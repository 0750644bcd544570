package io.bamel.bench.endurance;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeReadings;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;

/**
 * One node of the simulated fleet: the machine, and what the simulated controllers know of the
 * node's keys in etcd (spec and status with their revisions, the readings last written). Touched by
 * one thread at a time (each phase hands every node to one task).
 */
final class SimNode {

  final String id;
  final int pool;
  final Machine machine;
  NodeSpec spec;
  long specRevision;
  NodeStatus status;
  long statusRevision;
  NodeReadings readings;

  /** What the last decision was made from (see {@link NodeLoop}); null: none yet. */
  Object decidedFrom;

  SimNode(String id, int pool, Machine machine, NodeSpec spec) {
    this.id = id;
    this.pool = pool;
    this.machine = machine;
    this.spec = spec;
  }

  boolean desiredOn() {
    return spec.desiredPowerOrOff() == DesiredPower.ON;
  }

  NodeState state() {
    return status == null ? NodeState.UNKNOWN : status.stateOrUnknown();
  }
}
