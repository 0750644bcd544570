package io.bamel.pool.simulate;

import io.bamel.pool.Resources;

/**
 * One pod of a trace as the simulator replays it: its requests, the pool it belongs to, when the
 * trace started it and for how long it runs, and what happened to it in this run (where it is
 * bound, how long it has waited beyond the trace). Mutable, owned by one {@link Simulator} run.
 */
public final class SimPod {
  private final String name;
  private final Resources requests;
  private final String pool;
  private final long traceStart;
  private final long runSeconds;
  private final boolean placeholder;
  private long remaining;
  private long pendingSince;
  private boolean boundOnce;
  private long waited;
  private long endsAt = Long.MAX_VALUE;
  private SimServer node;
  private int evictions;
  private java.util.Map<String, java.math.BigDecimal> kubeRequests;

  SimPod(String name, Resources requests, String pool, long traceStart, long runSeconds) {
    this(name, requests, pool, traceStart, runSeconds, false);
  }

  private SimPod(
      String name,
      Resources requests,
      String pool,
      long traceStart,
      long runSeconds,
      boolean placeholder) {
    this.placeholder = placeholder;
    this.name = name;
    this.requests = requests;
    this.pool = pool;
    this.traceStart = traceStart;
    this.runSeconds = runSeconds;
    this.remaining = runSeconds;
    this.pendingSince = traceStart;
  }

  /**
   * An over-provisioning placeholder ({@link Overprovisioning}): a pause pod of the lowest priority
   * that requests {@code requests} of pool {@code pool} from {@code start} on and never ends.
   */
  static SimPod placeholder(String name, Resources requests, String pool, long start) {
    return new SimPod(name, requests, pool, start, Long.MAX_VALUE / 4, true);
  }

  /**
   * Whether it is an over-provisioning placeholder: it reserves room, draws no power, gives way to
   * any trace pod that needs its room, and is in no wait statistic.
   */
  public boolean placeholder() {
    return placeholder;
  }

  /** The pod's name in the trace. */
  public String name() {
    return name;
  }

  /** What it requests: {@code cpu} in cores, {@code memory} in bytes, {@code gpu} in GPUs. */
  public Resources requests() {
    return requests;
  }

  /** Its requests in Kubernetes' names and base units, as a pod's spec gives them (kept). */
  java.util.Map<String, java.math.BigDecimal> kubeRequests() {
    if (kubeRequests == null) {
      kubeRequests = java.util.Map.copyOf(SimKube.quantities(requests));
    }
    return kubeRequests;
  }

  /** The pool whose servers may run it. */
  public String pool() {
    return pool;
  }

  /** When the trace started it (seconds on the trace's clock). */
  public long traceStart() {
    return traceStart;
  }

  /** Since when it has been waiting for a node (its trace start, or its last eviction). */
  public long pendingSince() {
    return pendingSince;
  }

  /** The server it runs on, or null while it waits. */
  public SimServer node() {
    return node;
  }

  /** The seconds it has waited beyond the trace, up to now (bound or evicted pods). */
  public long waited() {
    return waited;
  }

  /** How many times a scale-down evicted it. */
  public int evictions() {
    return evictions;
  }

  long endsAt() {
    return endsAt;
  }

  long runSeconds() {
    return runSeconds;
  }

  /**
   * Binds it at {@code now}; {@code firstChance} says this is the first scheduling pass since it
   * became pending, where a real scheduler would have bound it at once (no wait counted).
   */
  void bind(SimServer server, long now, boolean firstChance) {
    if (!firstChance) {
      waited += now - pendingSince;
    }
    long start = firstChance ? pendingSince : now;
    node = server;
    boundOnce = true;
    endsAt = start + remaining;
  }

  /** Sends it back to waiting at {@code now}, keeping the run time it has left. */
  void evict(long now) {
    remaining = Math.max(0, endsAt - now);
    node = null;
    pendingSince = now;
    endsAt = Long.MAX_VALUE;
    evictions++;
  }

  /** The wait it ends the run with when still pending at {@code end}. */
  void endPending(long end) {
    waited += Math.max(0, end - pendingSince);
  }

  boolean boundOnce() {
    return boundOnce;
  }
}
