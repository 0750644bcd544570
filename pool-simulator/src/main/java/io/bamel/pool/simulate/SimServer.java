package io.bamel.pool.simulate;

import io.bamel.inventory.model.NodeState;
import io.bamel.pool.Resources;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One server of the simulated fleet: its pool, capacity, power draw and boot time, and its state in
 * this run as the node controller's lifecycle names it ({@code off -> powering-on -> joining ->
 * ready -> draining -> powering-off -> off}). Mutable, owned by one {@link Simulator} run;
 * autoscalers only read it.
 */
public final class SimServer {
  private final String id;
  private final String pool;
  private final Resources capacity;
  private final double idleWatts;
  private final double fullWatts;
  private final long bootSeconds;
  private NodeState state = NodeState.OFF;
  private boolean desiredOn;
  private long stateSince;
  private long lastPodChange;
  private int powerOns;
  private final List<SimPod> pods = new ArrayList<>();
  private Resources requested = Resources.NONE;

  SimServer(
      String id,
      String pool,
      Resources capacity,
      double idleWatts,
      double fullWatts,
      long bootSeconds) {
    this.id = id;
    this.pool = pool;
    this.capacity = capacity;
    this.idleWatts = idleWatts;
    this.fullWatts = fullWatts;
    this.bootSeconds = bootSeconds;
  }

  /** Its id (also its Kubernetes node name). */
  public String id() {
    return id;
  }

  /** Its pool. */
  public String pool() {
    return pool;
  }

  /** What it offers pods: {@code cpu} cores, {@code memory} bytes, {@code gpu}. */
  public Resources capacity() {
    return capacity;
  }

  /** Its draw when on and idle, in watts. */
  public double idleWatts() {
    return idleWatts;
  }

  /** Its draw at full CPU, in watts. */
  public double fullWatts() {
    return fullWatts;
  }

  /** Its power-on-to-Ready time in seconds, drawn once for the run. */
  public long bootSeconds() {
    return bootSeconds;
  }

  /** Its lifecycle state. */
  public NodeState state() {
    return state;
  }

  /** Whether the autoscaler wants it on. */
  public boolean desiredOn() {
    return desiredOn;
  }

  /** When it entered its state (seconds on the trace's clock). */
  public long stateSince() {
    return stateSince;
  }

  /** When a pod was last bound to it or left it. */
  public long lastPodChange() {
    return lastPodChange;
  }

  /** How many times it was switched on in this run. */
  public int powerOns() {
    return powerOns;
  }

  /** The pods bound to it. */
  public List<SimPod> pods() {
    return Collections.unmodifiableList(pods);
  }

  /** The sum of its pods' requests. */
  public Resources requested() {
    return requested;
  }

  /** Its capacity not requested by its pods. */
  public Resources free() {
    return capacity.minus(requested);
  }

  /** Whether pods may be bound to it: ready and meant to stay on. */
  public boolean schedulable() {
    return state == NodeState.READY && desiredOn;
  }

  /** Whether it is on its way to ready. */
  public boolean comingUp() {
    return desiredOn && (state == NodeState.POWERING_ON || state == NodeState.JOINING);
  }

  /** Whether it draws power (any state but off). */
  public boolean powered() {
    return state != NodeState.OFF;
  }

  /** The highest share of its capacity its pods request over {@code resources}. */
  public double utilization(List<String> resources) {
    double max = 0;
    for (String r : resources) {
      double cap = capacity.get(r);
      if (cap > 0) {
        max = Math.max(max, requested.get(r) / cap);
      }
    }
    return max;
  }

  /**
   * Its draw now: 0 when off; when ready, idle to full linear in the higher of the CPU and GPU
   * shares its pods request; idle in every other state (booting, joining, draining, shutting down).
   */
  public double watts() {
    if (state == NodeState.OFF) {
      return 0;
    }
    if (state != NodeState.READY) {
      return idleWatts;
    }
    double use = Math.min(1, utilization(USE));
    return idleWatts + (fullWatts - idleWatts) * use;
  }

  private static final List<String> USE = List.of("cpu", "gpu");

  void state(NodeState next, long now) {
    state = next;
    stateSince = now;
  }

  void desiredOn(boolean on) {
    desiredOn = on;
  }

  void countPowerOn() {
    powerOns++;
  }

  void add(SimPod pod, long now) {
    pods.add(pod);
    requested = requested.plus(pod.requests());
    lastPodChange = now;
  }

  void remove(SimPod pod, long now) {
    pods.remove(pod);
    requested = Resources.sum(pods.stream().map(SimPod::requests).toList());
    lastPodChange = now;
  }

  @Override
  public String toString() {
    return id + "(" + state + (desiredOn ? ",on" : ",off") + ")";
  }
}
