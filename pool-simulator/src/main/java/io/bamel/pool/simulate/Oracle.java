package io.bamel.pool.simulate;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The baseline every result is set against: a policy that knows the future and adds no wait, but
 * never moves a pod. It places every pod at its start in the trace, first-fit on its pool's servers
 * in id order (the simulator's scheduler, with every server available), so no pod waits while the
 * pool has room; a server is Ready exactly while it holds pods, switched on one boot time (its own,
 * drawn from the same seed as every other run) before its first pod and off when its last one
 * leaves, unless it is needed again within a boot time plus a shutdown, when staying on costs less.
 * Energy is counted as in the {@link Simulator}: idle while booting and shutting down, idle to full
 * linear in use while Ready.
 *
 * <p>It is the least energy of its own plan, not of every plan: a policy that moves pods off
 * fragmented servers (as cluster-autoscaler and Karpenter may) can switch off servers this plan
 * keeps on, and so use less. {@link EnergyFloor} is the bound no wait-free run goes below.
 *
 * <p>It is computed from the plan, not run through the step loop: the scheduler of the loop binds
 * to Ready servers only, and the plan is what the loop would do if every server the plan uses were
 * Ready on time.
 */
public final class Oracle {

  /** The oracle's name in the results. */
  public static final String NAME = "oracle";

  private Oracle() {}

  /** The oracle's result for {@code workload} on {@code fleet}. */
  public static PolicyResult run(Fleet fleet, Workload workload, Simulator.Settings settings) {
    long step = settings.stepSeconds();
    long start = workload.start();
    long end = start + Math.max(step, (workload.end() - start + step - 1) / step * step);
    int steps = (int) ((end - start) / step);
    List<SimServer> servers = fleet.build(settings.seed());
    int n = servers.size();
    BitSet[] busy = new BitSet[n];
    for (int i = 0; i < n; i++) {
      busy[i] = new BitSet(steps + 1);
    }
    double[] requestedCpu = new double[steps + 1];
    int[] pendingCount = new int[steps + 1];
    double dynamicJoules = 0;
    List<SimPod> pods = new ArrayList<>();
    for (Workload.Pod p : workload.pods()) {
      pods.add(new SimPod(p.name(), p.requests(), p.pool(), p.start(), p.run()));
    }
    List<SimPod> pending = new ArrayList<>();
    List<SimPod> running = new ArrayList<>();
    int next = 0;
    for (int i = 0; i <= steps; i++) {
      long now = start + i * step;
      for (int k = running.size() - 1; k >= 0; k--) {
        SimPod pod = running.get(k);
        if (pod.endsAt() <= now) {
          pod.node().remove(pod, now);
          running.remove(k);
        }
      }
      while (next < pods.size() && pods.get(next).traceStart() <= now) {
        pending.add(pods.get(next++));
      }
      for (int k = 0; k < pending.size(); ) {
        SimPod pod = pending.get(k);
        SimServer at = null;
        for (SimServer s : servers) {
          if (s.pool().equals(pod.pool()) && s.free().fits(pod.requests())) {
            at = s;
            break;
          }
        }
        if (at == null) {
          k++;
          continue;
        }
        pod.bind(at, now, pod.traceStart() > now - step || now == start);
        at.add(pod, now);
        running.add(pod);
        pending.remove(k);
      }
      double requested = 0;
      for (SimPod p : running) {
        requested += p.requests().get("cpu");
      }
      for (SimPod p : pending) {
        requested += p.requests().get("cpu");
      }
      requestedCpu[i] = requested;
      pendingCount[i] = pending.size();
      for (int s = 0; s < n; s++) {
        SimServer server = servers.get(s);
        if (!server.pods().isEmpty()) {
          busy[s].set(i);
          if (i > 0 && i < steps) {
            double use = Math.min(1, server.utilization(List.of("cpu", "gpu")));
            dynamicJoules += (server.fullWatts() - server.idleWatts()) * use * step;
          }
        }
      }
    }
    for (SimPod pod : pending) {
      pod.endPending(end);
    }
    // Powered and Ready spans from the busy spans.
    long shutdownSteps = (settings.shutdownSeconds() + step - 1) / step;
    double idleJoules = 0;
    int powerOns = 0;
    BitSet[] powered = new BitSet[n];
    BitSet[] ready = new BitSet[n];
    for (int s = 0; s < n; s++) {
      SimServer server = servers.get(s);
      long bootSteps = (server.bootSeconds() + step - 1) / step;
      powered[s] = new BitSet(steps + 1);
      ready[s] = new BitSet(steps + 1);
      int a = busy[s].nextSetBit(0);
      while (a >= 0) {
        int b = busy[s].nextClearBit(a);
        // Stay on through a gap shorter than a shutdown and a boot.
        int again = busy[s].nextSetBit(b);
        while (again >= 0 && again - b <= bootSteps + shutdownSteps) {
          b = busy[s].nextClearBit(again);
          again = busy[s].nextSetBit(b);
        }
        ready[s].set(a, b);
        int on = a == 0 ? 0 : (int) Math.max(0, a - bootSteps);
        if (a > 0) {
          powerOns++;
        }
        powered[s].set(on, (int) Math.min(steps + 1, b + shutdownSteps));
        a = again;
      }
      for (int i = powered[s].nextSetBit(1);
          i >= 0 && i < steps;
          i = powered[s].nextSetBit(i + 1)) {
        idleJoules += server.idleWatts() * step;
      }
    }
    Recorder rec = new Recorder(start, end, settings.sampleSeconds());
    rec.energy(1, Math.round(idleJoules + dynamicJoules));
    for (int i = 0; i <= steps; i++) {
      long now = start + i * step;
      if ((now - start) % settings.sampleSeconds() != 0) {
        continue;
      }
      double poweredCpu = 0;
      double readyCpu = 0;
      for (int s = 0; s < n; s++) {
        double cpu = servers.get(s).capacity().get("cpu");
        if (powered[s].get(i)) {
          poweredCpu += cpu;
        }
        if (ready[s].get(i)) {
          readyCpu += cpu;
        }
      }
      rec.sample(now, requestedCpu[i], poweredCpu, readyCpu, pendingCount[i]);
    }
    List<Long> waits = new ArrayList<>();
    for (SimPod pod : pods) {
      if (pod.traceStart() > start) {
        waits.add(pod.waited());
      }
    }
    return rec.result(
        NAME,
        Recorder.toArray(waits),
        workload.unplaceable().size(),
        pods.size(),
        0,
        pending.size(),
        powerOns,
        n,
        end - start);
  }
}
