package io.bamel.pool.simulate;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.ObservedPower;
import io.bamel.inventory.model.PowerAction;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.inventory.model.PowerPolicy;
import io.bamel.pool.Capacities;
import io.bamel.pool.Resources;
import io.bamel.power.BmcPowerState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * One server of the simulated fleet: its pool, capacity, power draw and boot time; its inventory
 * record (the spec the autoscaler writes, the status the node state machine writes: {@code off ->
 * powering-on -> joining -> ready -> draining -> powering-off -> off}, or {@code error}); its world
 * ({@link SimMachine}: the BMC, the kubelet and the Kubernetes node); and the pods bound to it.
 * Mutable, owned by one {@link Simulator} run; autoscalers only read it.
 */
public final class SimServer {
  private final String id;
  private final String pool;
  private final Resources capacity;
  private final double idleWatts;
  private final double fullWatts;
  private final long bootSeconds;
  private final SimMachine machine = new SimMachine();
  private NodeSpec specOn;
  private NodeSpec specOff;
  private boolean desiredOn;
  private long specRevision = 1;
  private NodeStatus status =
      NodeStatus.builder()
          .state(NodeState.OFF)
          .stateSince(Instant.EPOCH)
          .observedPower(ObservedPower.OFF)
          .bmcReachable(true)
          .build();
  private long lastPodChange;
  private int powerOns;
  private final List<SimPod> pods = new ArrayList<>();
  private final List<Leaving> leaving = new ArrayList<>();
  private Resources requested = Resources.NONE;
  private Resources used = Resources.NONE;

  /** An evicted pod still terminating on the server until {@code goneAt}. */
  record Leaving(SimPod pod, Resources requests, long goneAt) {}

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

  /** Its POST time: the first half of its boot time, while the BMC reports powering on. */
  public long postSeconds() {
    return bootSeconds / 2;
  }

  /** Its lifecycle state, as the node state machine last wrote it. */
  public NodeState state() {
    return status.stateOrUnknown();
  }

  /** Whether the autoscaler wants it on (its spec's desired power). */
  public boolean desiredOn() {
    return desiredOn;
  }

  /** When it entered its state (seconds on the trace's clock). */
  public long stateSince() {
    return status.stateSince() == null ? 0 : status.stateSince().getEpochSecond();
  }

  /** When a pod was last bound to it or left it. */
  public long lastPodChange() {
    return lastPodChange;
  }

  /** How many times its BMC was told to power on in this run. */
  public int powerOns() {
    return powerOns;
  }

  /** The pods bound to it (not those evicted and still terminating). */
  public List<SimPod> pods() {
    return Collections.unmodifiableList(pods);
  }

  /** The sum of its pods' requests, terminating ones included. */
  public Resources requested() {
    return requested;
  }

  /** Its capacity not requested by its pods. */
  public Resources free() {
    return capacity.minus(requested);
  }

  /**
   * Whether pods may be bound to it, as the scheduler sees its Kubernetes node: Ready, labelled
   * with its pool (the node controller's admission) and not cordoned.
   */
  public boolean schedulable() {
    return machine.kubeReady()
        && !machine.cordoned()
        && pool.equals(machine.labels().get(Cluster.POOL_LABEL));
  }

  /** Whether it is on its way to ready. */
  public boolean comingUp() {
    NodeState state = state();
    return desiredOn && (state == NodeState.POWERING_ON || state == NodeState.JOINING);
  }

  /** Whether it draws power: its BMC reports anything but off. */
  public boolean powered() {
    return machine.power() != BmcPowerState.OFF;
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
   * Its draw now: 0 when its BMC reports off; otherwise idle to full, linear in the higher of the
   * CPU and GPU shares its pods request, over-provisioning placeholders aside (pause pods: they
   * reserve room and run nothing); idle while booting, joining and shutting down (no pods).
   */
  public double watts() {
    if (!powered()) {
      return 0;
    }
    double use = 0;
    for (String r : USE) {
      double cap = capacity.get(r);
      if (cap > 0) {
        use = Math.max(use, used.get(r) / cap);
      }
    }
    use = Math.min(1, use);
    return idleWatts + (fullWatts - idleWatts) * use;
  }

  private static final List<String> USE = List.of("cpu", "gpu");

  // ------------------------------------------------------------ the inventory record

  /** Its spec, as the pool controller reads it: pool-managed, Redfish, its desired power. */
  NodeSpec spec() {
    if (desiredOn) {
      if (specOn == null) {
        specOn = spec(DesiredPower.ON);
      }
      return specOn;
    }
    if (specOff == null) {
      specOff = spec(DesiredPower.OFF);
    }
    return specOff;
  }

  private NodeSpec spec(DesiredPower desired) {
    return NodeSpec.builder()
        .pool(pool)
        .powerInterface(PowerInterface.of("redfish"))
        .powerPolicy(PowerPolicy.POOL)
        .resources(Capacities.of(capacity))
        .idlePowerWatts(idleWatts)
        .desiredPower(desired)
        .kubernetesNodeName(id)
        .build();
  }

  /** The spec's revision: one more at each write of its desired power. */
  long specRevision() {
    return specRevision;
  }

  /** Its status, as the node state machine last wrote it. */
  NodeStatus status() {
    return status;
  }

  void status(NodeStatus next) {
    status = next;
  }

  /** The autoscaler writes its desired power. */
  void desiredOn(boolean on) {
    if (on != desiredOn) {
      desiredOn = on;
      specRevision++;
    }
  }

  // ------------------------------------------------------------ the world

  /** Its BMC, kubelet and Kubernetes node. */
  SimMachine machine() {
    return machine;
  }

  /** Brings its world to {@code now}: BMC transitions, a kubelet joining, pods done terminating. */
  void advance(long now) {
    machine.advance(now);
    if (leaving.removeIf(l -> l.goneAt() <= now)) {
      recount(now);
    }
  }

  /** The evicted pods still terminating on it. */
  List<Leaving> leaving() {
    return Collections.unmodifiableList(leaving);
  }

  /**
   * Puts it in {@code next} since {@code now} as if the node controller had brought it there, its
   * world with it (the start of a run, and the rivals' tests): {@code off}, {@code powering-on}
   * (just switched on) or {@code ready} (on, its node Ready, labelled and uncordoned).
   */
  void state(NodeState next, long now) {
    Instant at = Instant.ofEpochSecond(now);
    switch (next) {
      case OFF -> {
        machine.forceOff();
        status =
            status.toBuilder().state(next).stateSince(at).observedPower(ObservedPower.OFF).build();
      }
      case POWERING_ON -> {
        machine.powerOn(now, postSeconds(), bootSeconds);
        status =
            status.toBuilder()
                .state(next)
                .stateSince(at)
                .lastPowerAction(PowerAction.POWER_ON)
                .powerActionTime(at)
                .timerStarted(at)
                .timerElapsed(Duration.ZERO)
                .build();
      }
      case READY -> {
        machine.running(Map.of(Cluster.POOL_LABEL, pool));
        status =
            status.toBuilder()
                .state(next)
                .stateSince(at)
                .observedPower(ObservedPower.ON)
                .kubernetesNode(id)
                .nodeReady(true)
                .build();
      }
      default -> throw new IllegalArgumentException("set up off, powering-on or ready: " + next);
    }
  }

  void countPowerOn() {
    powerOns++;
  }

  void add(SimPod pod, long now) {
    pods.add(pod);
    requested = requested.plus(pod.requests());
    if (!pod.placeholder()) {
      used = used.plus(pod.requests());
    }
    lastPodChange = now;
  }

  void remove(SimPod pod, long now) {
    pods.remove(pod);
    recount(now);
  }

  /** Evicts {@code pod}: it leaves the server's pods, terminating on it for {@code seconds}. */
  void evict(SimPod pod, long now, long seconds) {
    pods.remove(pod);
    if (seconds > 0) {
      leaving.add(new Leaving(pod, pod.requests(), now + seconds));
    }
    recount(now);
  }

  private void recount(long now) {
    List<Resources> all = new ArrayList<>(pods.size() + leaving.size());
    List<Resources> working = new ArrayList<>(pods.size() + leaving.size());
    for (SimPod p : pods) {
      all.add(p.requests());
      if (!p.placeholder()) {
        working.add(p.requests());
      }
    }
    for (Leaving l : leaving) {
      all.add(l.requests());
      if (!l.pod().placeholder()) {
        working.add(l.requests());
      }
    }
    requested = Resources.sum(all);
    used = working.size() == all.size() ? requested : Resources.sum(working);
    lastPodChange = now;
  }

  @Override
  public String toString() {
    return id + "(" + state() + (desiredOn ? ",on" : ",off") + ")";
  }
}
