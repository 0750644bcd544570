package io.bamel.pool.simulate;

import io.bamel.pool.Resources;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A true lower bound on the energy of any run that adds no wait: one in which every pod runs from
 * its trace start for its trace run time. Whatever the placement, and even if pods move between
 * servers at no cost, each step a pool must have Ready at least as many servers as its live pods'
 * requests need in CPU, memory and GPUs, each drawing at least its idle power, and the servers'
 * load above idle is at least the requested CPU (and GPUs) at the pool's watts per core (per GPU),
 * since the {@link Simulator}'s draw is linear in the higher of the two shares. Boot and shutdown
 * energy count as zero. Steps are those the simulator and the {@link Oracle} count.
 *
 * <p>The {@link Oracle} is not this bound: it places first-fit at the pod's start and never moves a
 * pod, so fragmentation keeps servers on that a repacking policy switches off.
 */
public final class EnergyFloor {

  private EnergyFloor() {}

  /** The floor, kWh, for {@code workload} on {@code fleet}, stepped as {@code settings} say. */
  public static double kWh(Fleet fleet, Workload workload, Simulator.Settings settings) {
    long step = settings.stepSeconds();
    long start = workload.start();
    long end = start + Math.max(step, (workload.end() - start + step - 1) / step * step);
    double joules = 0;
    for (FleetPool pool : fleet.pools()) {
      List<Workload.Pod> pods =
          workload.pods().stream()
              .filter(p -> p.pool().equals(pool.name()))
              .sorted(Comparator.comparingLong(Workload.Pod::start))
              .toList();
      PriorityQueue<Workload.Pod> live =
          new PriorityQueue<>(Comparator.comparingLong(p -> p.start() + p.run()));
      Resources cap = pool.capacity();
      double span = pool.fullWatts() - pool.idleWatts();
      double cpu = 0;
      double memory = 0;
      double gpu = 0;
      int next = 0;
      for (long now = start + step; now < end; now += step) {
        while (next < pods.size() && pods.get(next).start() <= now) {
          Workload.Pod pod = pods.get(next++);
          if (pod.start() + pod.run() > now) {
            live.add(pod);
            cpu += pod.requests().get("cpu");
            memory += pod.requests().get("memory");
            gpu += pod.requests().get("gpu");
          }
        }
        while (!live.isEmpty() && live.peek().start() + live.peek().run() <= now) {
          Workload.Pod pod = live.poll();
          cpu -= pod.requests().get("cpu");
          memory -= pod.requests().get("memory");
          gpu -= pod.requests().get("gpu");
        }
        double servers =
            Math.max(
                Math.max(needed(cpu, cap.get("cpu")), needed(memory, cap.get("memory"))),
                needed(gpu, cap.get("gpu")));
        double load = Math.max(share(cpu, cap.get("cpu")), share(gpu, cap.get("gpu")));
        joules += (servers * pool.idleWatts() + span * load) * step;
      }
    }
    return joules / 3_600_000;
  }

  private static double needed(double requested, double perServer) {
    return perServer > 0 ? Math.ceil(requested / perServer - 1e-9) : 0;
  }

  private static double share(double requested, double perServer) {
    return perServer > 0 ? requested / perServer : 0;
  }
}
