package io.bamel.pool.simulate;

import io.bamel.pool.Resources;
import java.util.ArrayList;
import java.util.List;

/**
 * A trace made ready to replay on a fleet, by these rules (docs/pool-controller.md, "Simulation"):
 *
 * <ul>
 *   <li>A pod starts, in the trace, at its scheduled time; it runs until its deletion, or until the
 *       trace's end when it has none (alive at the end), at least 1 s.
 *   <li>A pod the trace never scheduled (an empty scheduled time) is demand from its creation to
 *       its deletion, as the trace model says (docs/pool-controller.md, "Trace model"): it is
 *       replayed from its creation, so the simulated cluster is asked what the real one was; it is
 *       counted in {@link #neverScheduled()}.
 *   <li>A pod starting at the trace's first instant was alive when the trace began: it is placed
 *       before the clock runs, on servers that start Ready, and waits for nothing.
 *   <li>A pod goes to the first pool (in the fleet's order) whose servers can each hold it,
 *       preferring pools without GPUs for a pod that asks none. A pod no server of any pool can
 *       hold is {@linkplain #unplaceable() unplaceable}: counted, never waited on.
 * </ul>
 */
public final class Workload {

  /**
   * One pod to replay.
   *
   * @param name its name
   * @param requests cpu cores, memory bytes, gpu
   * @param pool its pool
   * @param start when the trace started it
   * @param run how long it runs, seconds
   */
  public record Pod(String name, Resources requests, String pool, long start, long run) {}

  private final List<Pod> pods;
  private final List<String> unplaceable;
  private final int neverScheduled;
  private final long start;
  private final long end;

  private Workload(
      List<Pod> pods, List<String> unplaceable, int neverScheduled, long start, long end) {
    this.pods = List.copyOf(pods);
    this.unplaceable = List.copyOf(unplaceable);
    this.neverScheduled = neverScheduled;
    this.start = start;
    this.end = end;
  }

  /** The trace's pods placed on {@code fleet}'s pools by the rules above. */
  public static Workload of(PodTrace trace, Fleet fleet) {
    long start = trace.start();
    long end = trace.end();
    List<Pod> pods = new ArrayList<>();
    List<String> unplaceable = new ArrayList<>();
    int neverScheduled = 0;
    for (PodRecord r : trace.pods()) {
      if (r.neverScheduled()) {
        neverScheduled++;
      }
      Resources req = requests(r);
      String pool = fleet.poolFor(req);
      if (pool == null) {
        unplaceable.add(r.name());
        continue;
      }
      long podStart = r.scheduled().orElse(r.created());
      long run = Math.max(1, r.deletedOr(end) - podStart);
      pods.add(new Pod(r.name(), req, pool, podStart, run));
    }
    pods.sort(java.util.Comparator.comparingLong(Pod::start).thenComparing(Pod::name));
    return new Workload(pods, unplaceable, neverScheduled, start, end);
  }

  /** A trace pod's requests: cores, bytes, GPUs. */
  public static Resources requests(PodRecord r) {
    return r.gpuMilli() > 0
        ? Resources.of(
            "cpu",
            r.cpuMilli() / 1000.0,
            "memory",
            r.memoryMib() * 1024.0 * 1024,
            "gpu",
            r.gpuMilli() / 1000.0)
        : Resources.of("cpu", r.cpuMilli() / 1000.0, "memory", r.memoryMib() * 1024.0 * 1024);
  }

  /** The pods to replay, by start then name. */
  public List<Pod> pods() {
    return pods;
  }

  /** The names of pods no pool can hold. */
  public List<String> unplaceable() {
    return unplaceable;
  }

  /** How many of the replayed pods the trace never scheduled (replayed from their creation). */
  public int neverScheduled() {
    return neverScheduled;
  }

  /** The trace's start. */
  public long start() {
    return start;
  }

  /** The trace's end. */
  public long end() {
    return end;
  }
}
