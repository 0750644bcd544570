package io.bamel.pool.simulate;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * One pod of a workload trace: when it was created and deleted (seconds on the trace's clock), what
 * it requested, and, where the source recorded them, when it was scheduled, its phase and QoS.
 *
 * <p>An empty {@code deleted} means the pod was still alive at the trace's end; an empty {@code
 * scheduled} means the source never scheduled it (see docs/pool-controller.md, "Workloads for
 * simulation", for how a simulation treats both). {@code gpuMilli} is thousandths of a GPU: 2000
 * for two whole GPUs, 460 for a 46 % share of one.
 */
public record PodRecord(
    String name,
    long created,
    OptionalLong deleted,
    long cpuMilli,
    long memoryMib,
    long gpuMilli,
    OptionalLong scheduled,
    String phase,
    String qos) {

  public PodRecord {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(deleted, "deleted");
    Objects.requireNonNull(scheduled, "scheduled");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(qos, "qos");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("a pod needs a name");
    }
    if (created < 0 || cpuMilli < 0 || memoryMib < 0 || gpuMilli < 0) {
      throw new IllegalArgumentException(name + ": negative time or request");
    }
    if (deleted.isPresent() && deleted.getAsLong() < created) {
      throw new IllegalArgumentException(name + ": deleted before it was created");
    }
    if (scheduled.isPresent() && scheduled.getAsLong() < created) {
      throw new IllegalArgumentException(name + ": scheduled before it was created");
    }
  }

  /** A pod with only the fields bamel's generator sets: scheduled when created, no phase or QoS. */
  public static PodRecord of(
      String name,
      long created,
      OptionalLong deleted,
      long cpuMilli,
      long memoryMib,
      long gpuMilli) {
    return new PodRecord(
        name, created, deleted, cpuMilli, memoryMib, gpuMilli, OptionalLong.of(created), "", "");
  }

  /** This pod with another scheduled time (empty: never scheduled). */
  public PodRecord withScheduled(OptionalLong when) {
    return new PodRecord(name, created, deleted, cpuMilli, memoryMib, gpuMilli, when, phase, qos);
  }

  /** When the pod stops requesting resources in a trace that ends at {@code traceEnd}. */
  public long deletedOr(long traceEnd) {
    return deleted.orElse(Math.max(traceEnd, created));
  }

  /** True when the source never scheduled the pod. */
  public boolean neverScheduled() {
    return scheduled.isEmpty();
  }
}
