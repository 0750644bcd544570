package io.bamel.bench.endurance;

import java.util.concurrent.atomic.LongAdder;

/** The etcd writes of a simulated day, by kind; thread-safe. */
final class WriteCounts {

  /** Node status writes (each with its event when it records a transition). */
  final LongAdder status = new LongAdder();

  /** Power readings written. */
  final LongAdder readings = new LongAdder();

  /** Power readings taken from BMCs (each one a write without a readings policy). */
  final LongAdder readingsTaken = new LongAdder();

  /** Pool decisions (desired power of the chosen nodes, their events and the pool status). */
  final LongAdder decisions = new LongAdder();

  /** Nodes switched by those decisions. */
  final LongAdder switched = new LongAdder();

  /** Pool status writes without a decision. */
  final LongAdder poolStatus = new LongAdder();

  /** Pool statuses computed but not written (only their utilization moved, within tolerance). */
  final LongAdder poolStatusSkipped = new LongAdder();

  /** Compactions requested. */
  final LongAdder compactions = new LongAdder();

  /** Member defragmentations. */
  final LongAdder defrags = new LongAdder();

  /** Every etcd write transaction. */
  long total() {
    return status.sum() + readings.sum() + decisions.sum() + poolStatus.sum();
  }

  @Override
  public String toString() {
    return String.format(
        "%,d writes: %,d status, %,d readings (of %,d taken), %,d pool decisions (%,d nodes"
            + " switched), %,d pool status (%,d not written); %,d compactions, %,d defrags",
        total(),
        status.sum(),
        readings.sum(),
        readingsTaken.sum(),
        decisions.sum(),
        switched.sum(),
        poolStatus.sum(),
        poolStatusSkipped.sum(),
        compactions.sum(),
        defrags.sum());
  }
}
