package io.bamel.server.demo;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.EvictionResult;
import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.PodRef;
import io.bamel.power.sim.SimulatedSystem;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A small Kubernetes cluster in memory, for the demo: the same {@link Cluster} port as the fabric8
 * implementation. A machine whose BMC reports on registers as a node and turns Ready {@code
 * joinDelay} later; a machine switched off disappears and its pods become pending again. Each
 * pool's {@link LoadProfile} decides how many pods run; a first-fit scheduler places them on Ready,
 * schedulable nodes of their pool and marks the rest Unschedulable. Evictions delete the pod, and
 * its workload recreates it as pending, as a ReplicaSet would.
 *
 * <p>Call {@link #tick()} periodically (the demo does, every half second); every method is
 * synchronized, so the controllers can call the port from any thread.
 */
public final class SimulatedCluster implements Cluster {

  private static final String NAMESPACE = "demo";

  /** A machine the cluster may see: its node name, pool, capacity, and whether it is on. */
  public record Machine(
      String name, String pool, Map<String, BigDecimal> allocatable, Predicate<String> poweredOn) {}

  private static final class SimNode {
    final Machine machine;
    final Instant registered;
    boolean unschedulable;
    final Map<String, String> labels = new HashMap<>();

    SimNode(Machine machine, Instant registered) {
      this.machine = machine;
      this.registered = registered;
    }
  }

  private static final class SimPod {
    final String name;
    final LoadProfile profile;
    String node;

    SimPod(String name, LoadProfile profile) {
      this.name = name;
      this.profile = profile;
    }
  }

  private final Clock clock;
  private final Duration joinDelay;
  private final Instant start;
  private final Map<String, Machine> machines = new LinkedHashMap<>();
  private final List<LoadProfile> profiles;
  private final Map<String, SimNode> nodes = new LinkedHashMap<>();
  private final Map<String, SimPod> pods = new LinkedHashMap<>();
  private long podCounter;
  private long evictions;

  /** A cluster over {@code machines} running {@code profiles}, starting now. */
  public SimulatedCluster(
      Clock clock, Duration joinDelay, List<Machine> machines, List<LoadProfile> profiles) {
    this.clock = clock;
    this.joinDelay = joinDelay;
    this.start = clock.instant();
    machines.forEach(m -> this.machines.put(m.name(), m));
    this.profiles = List.copyOf(profiles);
  }

  /** Registers machines that came on, drops machines that went off, scales and schedules pods. */
  public synchronized void tick() {
    Instant now = clock.instant();
    for (Machine m : machines.values()) {
      boolean on = m.poweredOn().test(m.name());
      if (on && !nodes.containsKey(m.name())) {
        nodes.put(m.name(), new SimNode(m, now));
      } else if (!on && nodes.remove(m.name()) != null) {
        pods.values().stream().filter(p -> m.name().equals(p.node)).forEach(p -> p.node = null);
      }
    }
    Duration elapsed = Duration.between(start, now);
    for (LoadProfile profile : profiles) {
      scale(profile, profile.podsAt(elapsed));
    }
    schedule(now);
  }

  private void scale(LoadProfile profile, int want) {
    List<SimPod> mine = pods.values().stream().filter(p -> p.profile == profile).toList();
    for (int i = mine.size(); i < want; i++) {
      String name = profile.pool() + "-worker-" + (++podCounter);
      pods.put(name, new SimPod(name, profile));
    }
    // Scale in like a Deployment: pending pods first, then the newest.
    List<SimPod> victims = new ArrayList<>(mine);
    victims.sort(
        (a, b) ->
            a.node == null && b.node != null
                ? -1
                : b.node == null && a.node != null ? 1 : b.name.compareTo(a.name));
    for (int i = 0; i < mine.size() - want; i++) {
      pods.remove(victims.get(i).name);
    }
  }

  private void schedule(Instant now) {
    for (SimPod pod : pods.values()) {
      if (pod.node != null) {
        continue;
      }
      for (SimNode node : nodes.values()) {
        if (isReady(node, now)
            && !node.unschedulable
            && pod.profile.pool().equals(node.machine.pool())
            && fits(node, pod.profile.requests())) {
          pod.node = node.machine.name();
          break;
        }
      }
    }
  }

  private boolean fits(SimNode node, Map<String, BigDecimal> request) {
    for (Map.Entry<String, BigDecimal> e : request.entrySet()) {
      BigDecimal used = BigDecimal.ZERO;
      for (SimPod p : pods.values()) {
        if (node.machine.name().equals(p.node)) {
          used = used.add(p.profile.requests().getOrDefault(e.getKey(), BigDecimal.ZERO));
        }
      }
      BigDecimal cap = node.machine.allocatable().getOrDefault(e.getKey(), BigDecimal.ZERO);
      if (used.add(e.getValue()).compareTo(cap) > 0) {
        return false;
      }
    }
    return true;
  }

  private boolean isReady(SimNode node, Instant now) {
    return !now.isBefore(node.registered.plus(joinDelay));
  }

  /** How many pods are running, and how many wait, in {@code pool}. */
  public synchronized int[] podCounts(String pool) {
    int running = 0;
    int pending = 0;
    for (SimPod p : pods.values()) {
      if (p.profile.pool().equals(pool)) {
        if (p.node == null) {
          pending++;
        } else {
          running++;
        }
      }
    }
    return new int[] {running, pending};
  }

  /** How many evictions were accepted. */
  public synchronized long evictions() {
    return evictions;
  }

  @Override
  public boolean enabled() {
    return true;
  }

  @Override
  public boolean reachable() {
    return true;
  }

  @Override
  public synchronized List<KubeNode> nodes() {
    Instant now = clock.instant();
    return nodes.values().stream().map(n -> toKube(n, now)).toList();
  }

  @Override
  public synchronized Optional<KubeNode> node(String name) {
    SimNode n = nodes.get(name);
    return n == null ? Optional.empty() : Optional.of(toKube(n, clock.instant()));
  }

  @Override
  public synchronized List<KubePod> pods() {
    return pods.values().stream().map(this::toKube).toList();
  }

  @Override
  public synchronized List<KubePod> podsOn(String nodeName) {
    return pods.values().stream().filter(p -> nodeName.equals(p.node)).map(this::toKube).toList();
  }

  @Override
  public synchronized boolean cordon(String nodeName) {
    SimNode n = nodes.get(nodeName);
    if (n != null) {
      n.unschedulable = true;
    }
    return n != null;
  }

  @Override
  public synchronized boolean uncordon(String nodeName) {
    SimNode n = nodes.get(nodeName);
    if (n != null) {
      n.unschedulable = false;
    }
    return n != null;
  }

  @Override
  public synchronized boolean label(String nodeName, Map<String, String> labels) {
    SimNode n = nodes.get(nodeName);
    if (n != null) {
      n.labels.putAll(labels);
    }
    return n != null;
  }

  @Override
  public synchronized EvictionResult evict(PodRef ref) {
    SimPod pod = pods.remove(ref.name());
    if (pod == null) {
      return new EvictionResult(ref, EvictionResult.Status.GONE, "no such pod");
    }
    evictions++;
    String name = pod.profile.pool() + "-worker-" + (++podCounter);
    pods.put(name, new SimPod(name, pod.profile));
    return new EvictionResult(ref, EvictionResult.Status.EVICTED, "evicted");
  }

  @Override
  public void close() {}

  private KubeNode toKube(SimNode n, Instant now) {
    Map<String, String> labels = new HashMap<>(n.labels);
    labels.put("kubernetes.io/hostname", n.machine.name());
    return new KubeNode(
        n.machine.name(),
        isReady(n, now),
        n.unschedulable,
        labels,
        Map.of(),
        n.machine.allocatable(),
        SimulatedSystem.systemUuid(n.machine.name()), // the kubelet reads the machine's firmware
        null);
  }

  private KubePod toKube(SimPod p) {
    boolean scheduled = p.node != null;
    return new KubePod(
        new PodRef(NAMESPACE, p.name),
        p.node,
        scheduled ? "Running" : "Pending",
        p.profile.requests(),
        scheduled,
        scheduled ? null : "Unschedulable",
        "ReplicaSet",
        Map.of("app", p.profile.pool() + "-worker"),
        Map.of(),
        Map.of(POOL_LABEL, p.profile.pool()),
        Set.of(p.profile.pool()),
        List.of());
  }
}
