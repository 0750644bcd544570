package io.bamel.pool.simulate;

import io.bamel.inventory.model.NodeState;
import io.bamel.node.NodeControllerConfig;
import io.bamel.pool.Resources;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Replays a {@link Workload} on a {@link Fleet} under one {@link Autoscaler}, on a fake clock that
 * advances in steps (10 s by default). Deterministic: the same fleet, workload, settings and seed
 * give the same result.
 *
 * <p>Each step, in order:
 *
 * <ol>
 *   <li>The node controller ({@link SimNodeController}): each server's world moves on (its BMC
 *       reports {@code on} after the first half of its boot time, its kubelet joins at the end of
 *       it, a graceful power-off takes the shutdown time, 60 s), and the servers due are looked at
 *       by the node state machine, which decides their lifecycle ({@code off -> powering-on ->
 *       joining -> ready -> draining -> powering-off -> off}, or {@code error}).
 *   <li>Pods whose run is over leave their servers; pods whose trace start has come wait.
 *   <li>The scheduler binds waiting pods, oldest first, to the first Ready server of their pool (in
 *       id order) with room for their requests in every resource, as kube-scheduler's resource fit
 *       filters nodes. A pod bound at the first pass after it began waiting started on time (a real
 *       scheduler binds within the step); otherwise its extra wait is the time since it began
 *       waiting. It then runs for the rest of its trace lifetime. With {@linkplain
 *       Autoscaler#overprovisioning() over-provisioning placeholders}, a pod that fits nowhere
 *       preempts placeholders where that makes room, and the placeholders left waiting are bound
 *       after every trace pod ({@link Overprovisioning}).
 *   <li>The autoscaler sees the cluster and writes the desired power of the servers it switches;
 *       the node controller looks at each of them at once, as its watch of the inventory does: a
 *       server switched off is drained (its pods are evicted, wait again, the time counting as
 *       extra wait, and keep the run time they had left), then powered off once no pod is left on
 *       it.
 *   <li>Energy: every server's draw ({@link SimServer#watts()}) over the step.
 * </ol>
 *
 * Pods alive when the trace begins are placed first-fit before the clock runs, on servers that
 * start Ready (every server for an autoscaler that is {@linkplain Autoscaler#allOnAtStart() always
 * on}); pods still waiting at the end count their wait up to the end.
 */
public final class Simulator {

  /**
   * How a run goes.
   *
   * @param stepSeconds the clock's step
   * @param shutdownSeconds how long a server takes from power-off to off
   * @param sampleSeconds the time between points of the time series (a multiple of the step)
   * @param seed the seed of the servers' boot times
   */
  public record Settings(long stepSeconds, long shutdownSeconds, long sampleSeconds, long seed) {

    /** 10 s steps, 60 s shutdowns, a point a minute, seed 1. */
    public static final Settings DEFAULTS = new Settings(10, 60, 60, 1);

    /** Checks the values. */
    public Settings {
      if (stepSeconds <= 0 || shutdownSeconds < 0 || sampleSeconds % stepSeconds != 0) {
        throw new IllegalArgumentException(
            "needs a positive step and a sample interval that is a multiple of it");
      }
    }

    /** These settings with another seed. */
    public Settings withSeed(long other) {
      return new Settings(stepSeconds, shutdownSeconds, sampleSeconds, other);
    }
  }

  private final Fleet fleet;
  private final Workload workload;
  private final Settings settings;

  /** A simulator of {@code workload} on {@code fleet}. */
  public Simulator(Fleet fleet, Workload workload, Settings settings) {
    this.fleet = fleet;
    this.workload = workload;
    this.settings = settings;
  }

  /** The fleet. */
  public Fleet fleet() {
    return fleet;
  }

  /** The workload. */
  public Workload workload() {
    return workload;
  }

  /** The settings. */
  public Settings settings() {
    return settings;
  }

  /** One run under {@code autoscaler} (a fresh instance per run). */
  public PolicyResult run(Autoscaler autoscaler) {
    long step = settings.stepSeconds();
    long start = workload.start();
    long end = start + Math.max(step, ceil(workload.end() - start, step));
    List<SimServer> servers = fleet.build(settings.seed());
    Map<String, SimServer> byId = new HashMap<>();
    servers.forEach(s -> byId.put(s.id(), s));
    SimNodeController nodes =
        new SimNodeController(
            fleet, servers, start, settings.shutdownSeconds(), 0, NodeControllerConfig.DEFAULTS);
    List<SimPod> pods = new ArrayList<>();
    for (Workload.Pod p : workload.pods()) {
      pods.add(new SimPod(p.name(), p.requests(), p.pool(), p.start(), p.run()));
    }
    List<SimPod> pending = new ArrayList<>();
    List<SimPod> running = new ArrayList<>();
    Map<SimPod, Boolean> tried = new HashMap<>();
    Recorder rec = new Recorder(start, end, settings.sampleSeconds());
    int next = 0;

    // Pods alive at the start: placed on servers that start Ready.
    long longAgo = start - 86400;
    if (autoscaler.allOnAtStart()) {
      for (SimServer s : servers) {
        s.desiredOn(true);
        s.state(NodeState.READY, longAgo);
      }
    }
    while (next < pods.size() && pods.get(next).traceStart() <= start) {
      SimPod pod = pods.get(next++);
      SimServer at = firstFit(servers, pod, false);
      if (at == null) {
        at = firstFit(servers, pod, true);
        if (at != null) {
          at.desiredOn(true);
          at.state(NodeState.READY, longAgo);
        }
      }
      if (at != null) {
        pod.bind(at, start, true);
        at.add(pod, longAgo);
        running.add(pod);
      } else {
        pending.add(pod);
      }
    }
    Overprovisioning op = autoscaler.overprovisioning();
    if (op.replicas() > 0 && fleet.pools().stream().noneMatch(p -> p.name().equals(op.pool()))) {
      throw new IllegalArgumentException("placeholders for pool " + op.pool() + ": no such pool");
    }
    for (int i = 0; i < op.replicas(); i++) {
      pending.add(SimPod.placeholder("placeholder-" + i, op.requests(), op.pool(), start));
    }
    boolean placeholders = op.replicas() > 0;
    record(rec, start, servers, running, pending);

    int evictions = 0;
    for (long now = start + step; now <= end; now += step) {
      // 1. the node controller
      evictions += requeue(nodes.tick(now), now, running, pending);
      // 2. departures and arrivals
      for (int i = running.size() - 1; i >= 0; i--) {
        SimPod pod = running.get(i);
        if (pod.endsAt() <= now) {
          pod.node().remove(pod, now);
          running.remove(i);
        }
      }
      while (next < pods.size() && pods.get(next).traceStart() <= now) {
        pending.add(pods.get(next++));
      }
      // 3. scheduling: trace pods, oldest first, preempting placeholders; then placeholders
      for (int i = 0; i < pending.size(); ) {
        SimPod pod = pending.get(i);
        if (pod.placeholder()) {
          i++;
          continue;
        }
        SimServer at = firstFit(servers, pod, false);
        if (at == null && placeholders) {
          at = preempt(servers, pod, now, running, pending);
        }
        if (at == null) {
          tried.put(pod, true);
          i++;
          continue;
        }
        pod.bind(at, now, tried.remove(pod) == null);
        at.add(pod, now);
        running.add(pod);
        pending.remove(i);
      }
      for (int i = 0; placeholders && i < pending.size(); ) {
        SimPod pod = pending.get(i);
        SimServer at = pod.placeholder() ? firstFit(servers, pod, false) : null;
        if (at == null) {
          i++;
          continue;
        }
        pod.bind(at, now, true);
        at.add(pod, now);
        running.add(pod);
        pending.remove(i);
      }
      // 4. the autoscaler
      Autoscaler.Decision d =
          autoscaler.decide(new ClusterState(now, step, fleet, servers, List.copyOf(pending)));
      for (String id : d.powerOn()) {
        SimServer s = byId.get(id);
        if (s != null && s.state() == NodeState.OFF && !s.desiredOn()) {
          s.desiredOn(true);
          evictions += requeue(nodes.specChanged(s, now), now, running, pending);
        }
      }
      for (String id : d.powerOff()) {
        SimServer s = byId.get(id);
        if (s != null && s.state() == NodeState.READY && s.desiredOn()) {
          s.desiredOn(false);
          evictions += requeue(nodes.specChanged(s, now), now, running, pending);
        }
      }
      // 5. energy and samples
      if (now < end) {
        double watts = 0;
        for (SimServer s : servers) {
          watts += s.watts();
        }
        rec.energy(watts, step);
      }
      record(rec, now, servers, running, pending);
    }
    for (SimPod pod : pending) {
      pod.endPending(end);
    }
    List<Long> waits = new ArrayList<>();
    for (SimPod pod : pods) {
      if (pod.traceStart() > start) {
        waits.add(pod.waited());
      }
    }
    int powerOns = servers.stream().mapToInt(SimServer::powerOns).sum();
    int pendingAtEnd = (int) pending.stream().filter(p -> !p.placeholder()).count();
    return rec.result(
        autoscaler.name(),
        Recorder.toArray(waits),
        workload.unplaceable().size(),
        pods.size(),
        evictions,
        pendingAtEnd,
        powerOns,
        servers.size(),
        end - start);
  }

  /** Pods a drain evicted at {@code now} wait again; returns how many, placeholders aside. */
  private static int requeue(
      List<SimPod> evicted, long now, List<SimPod> running, List<SimPod> pending) {
    int count = 0;
    for (SimPod pod : evicted) {
      running.remove(pod);
      pod.evict(now);
      pending.add(pod);
      if (!pod.placeholder()) {
        count++;
      }
    }
    return count;
  }

  /**
   * Preemption for trace pod {@code pod}, which fits on no schedulable server: the first
   * schedulable server of its pool, in id order, where removing placeholders (in the order they
   * were bound) makes room for it; those placeholders wait again. Returns the server, or null when
   * no server has enough room with its placeholders gone.
   */
  static SimServer preempt(
      List<SimServer> servers, SimPod pod, long now, List<SimPod> running, List<SimPod> pending) {
    for (SimServer s : servers) {
      if (!s.pool().equals(pod.pool()) || !s.schedulable()) {
        continue;
      }
      Resources free = s.free();
      List<SimPod> victims = new ArrayList<>();
      for (SimPod p : s.pods()) {
        if (free.fits(pod.requests())) {
          break;
        }
        if (p.placeholder()) {
          victims.add(p);
          free = free.plus(p.requests());
        }
      }
      if (victims.isEmpty() || !free.fits(pod.requests())) {
        continue;
      }
      for (SimPod v : victims) {
        s.remove(v, now);
        running.remove(v);
        v.evict(now);
        pending.add(v);
      }
      return s;
    }
    return null;
  }

  private static void record(
      Recorder rec, long now, List<SimServer> servers, List<SimPod> running, List<SimPod> pending) {
    double requested = 0;
    int waiting = 0;
    for (SimPod p : running) {
      if (!p.placeholder()) {
        requested += p.requests().get("cpu");
      }
    }
    for (SimPod p : pending) {
      if (!p.placeholder()) {
        requested += p.requests().get("cpu");
        waiting++;
      }
    }
    double powered = 0;
    double ready = 0;
    for (SimServer s : servers) {
      double cpu = s.capacity().get("cpu");
      if (s.powered()) {
        powered += cpu;
      }
      if (s.state() == NodeState.READY) {
        ready += cpu;
      }
    }
    rec.sample(now, requested, powered, ready, waiting);
  }

  /**
   * The first server of the pod's pool, in id order, with room for it: among the schedulable ones,
   * or ({@code off}) among those that are off.
   */
  static SimServer firstFit(List<SimServer> servers, SimPod pod, boolean off) {
    for (SimServer s : servers) {
      if (!s.pool().equals(pod.pool())) {
        continue;
      }
      boolean eligible = off ? s.state() == NodeState.OFF && !s.desiredOn() : s.schedulable();
      if (eligible && s.free().fits(pod.requests())) {
        return s;
      }
    }
    return null;
  }

  private static long ceil(long value, long step) {
    return (value + step - 1) / step * step;
  }
}
