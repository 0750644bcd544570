package io.bamel.pool.simulate;

import java.util.Comparator;
import java.util.List;

/**
 * A workload: pods ordered by creation time (then name). The trace starts at its earliest creation
 * and ends at its latest recorded time (creation, deletion or scheduling); a pod with no deletion
 * is alive until that end. Read from CSV by {@link TraceCsv} or made by {@link WorkloadGenerator}.
 */
public record PodTrace(List<PodRecord> pods) {

  public PodTrace {
    pods =
        pods.stream()
            .sorted(Comparator.comparingLong(PodRecord::created).thenComparing(PodRecord::name))
            .toList();
  }

  /** The earliest creation time, 0 for an empty trace. */
  public long start() {
    return pods.isEmpty() ? 0 : pods.getFirst().created();
  }

  /** The latest time the trace records, 0 for an empty trace. */
  public long end() {
    long end = start();
    for (PodRecord pod : pods) {
      end = Math.max(end, pod.created());
      end = Math.max(end, pod.deleted().orElse(0));
      end = Math.max(end, pod.scheduled().orElse(0));
    }
    return end;
  }
}
