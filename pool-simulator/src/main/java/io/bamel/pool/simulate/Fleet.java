package io.bamel.pool.simulate;

import io.bamel.pool.Resources;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;

/**
 * The servers a simulation switches, as pools of identical servers ({@link FleetPool}), in order.
 *
 * @param pools the pools, in the order pods are assigned to them
 */
public record Fleet(List<FleetPool> pools) {

  /** Cores and memory of a default CPU server: a common two-socket machine. */
  public static final double CPU_CORES = 64;

  /** Memory of a default CPU server, GiB. */
  public static final double CPU_MEMORY_GIB = 512;

  /** A default GPU server: 8 GPUs, 96 cores, 1 TiB. */
  public static final int GPU_COUNT = 8;

  /** Cores of a default GPU server. */
  public static final double GPU_CORES = 96;

  /** Memory of a default GPU server, GiB. */
  public static final double GPU_MEMORY_GIB = 1024;

  /** Spare capacity the default fleet has over the trace's peak (for packing losses). */
  public static final double HEADROOM = 1.25;

  /** Copies the list; names must differ. */
  public Fleet {
    pools = List.copyOf(pools);
    if (pools.isEmpty()) {
      throw new IllegalArgumentException("a fleet needs at least one pool");
    }
    if (pools.stream().map(FleetPool::name).distinct().count() != pools.size()) {
      throw new IllegalArgumentException("pool names must differ");
    }
  }

  /**
   * The default fleet for a trace: a pool {@code cpu} of 64-core, 512 GiB servers (more cores, in
   * steps of 32, with 8 GiB each, when the trace's biggest CPU pod needs them) and, when the trace
   * asks for GPUs, a pool {@code gpu} of 8-GPU, 96-core, 1 TiB servers; each with {@link #HEADROOM}
   * times the servers its pods' concurrent peak (in the trace's own timing) needs in their scarcest
   * resource, plus one.
   */
  public static Fleet sizedFor(PodTrace trace) {
    double biggest = 0;
    boolean gpus = false;
    for (PodRecord r : trace.pods()) {
      if (r.gpuMilli() > 0) {
        gpus = true;
      } else {
        biggest = Math.max(biggest, r.cpuMilli() / 1000.0);
      }
    }
    double cores = Math.max(CPU_CORES, Math.ceil(biggest / 32) * 32);
    double memory = Math.max(CPU_MEMORY_GIB, cores * 8);
    List<FleetPool> probes = new ArrayList<>();
    probes.add(FleetPool.of("cpu", 1, cores, memory, 0));
    if (gpus) {
      probes.add(FleetPool.of("gpu", 1, GPU_CORES, GPU_MEMORY_GIB, GPU_COUNT));
    }
    Fleet probe = new Fleet(probes);
    Workload w = Workload.of(trace, probe);
    List<FleetPool> pools = new ArrayList<>();
    for (FleetPool p : probe.pools()) {
      Resources peak = peak(w, p.name());
      double need = 0;
      for (var e : peak.amounts().entrySet()) {
        double cap = p.capacity().get(e.getKey());
        if (cap > 0) {
          need = Math.max(need, e.getValue() / cap);
        }
      }
      pools.add(p.withServers((int) Math.ceil(need * HEADROOM) + 1));
    }
    return new Fleet(pools);
  }

  /** The peak, per resource, of what the pool's pods request at once in the trace's timing. */
  static Resources peak(Workload w, String pool) {
    TreeMap<Long, List<Resources[]>> events = new TreeMap<>();
    for (Workload.Pod p : w.pods()) {
      if (!p.pool().equals(pool)) {
        continue;
      }
      events
          .computeIfAbsent(p.start(), k -> new ArrayList<>())
          .add(new Resources[] {p.requests(), null});
      events
          .computeIfAbsent(p.start() + p.run(), k -> new ArrayList<>())
          .add(new Resources[] {null, p.requests()});
    }
    Map<String, Double> now = new TreeMap<>();
    Map<String, Double> peak = new TreeMap<>();
    for (List<Resources[]> at : events.values()) {
      for (Resources[] e : at) {
        if (e[1] != null) {
          e[1].amounts().forEach((k, v) -> now.merge(k, -v, Double::sum));
        }
      }
      for (Resources[] e : at) {
        if (e[0] != null) {
          e[0].amounts().forEach((k, v) -> now.merge(k, v, Double::sum));
        }
      }
      now.forEach((k, v) -> peak.merge(k, v, Math::max));
    }
    return new Resources(peak);
  }

  /** The pool a pod with {@code requests} goes to, or null when no server can hold it. */
  public String poolFor(Resources requests) {
    boolean wantsGpu = requests.get("gpu") > 0;
    for (int pass = 0; pass < 2; pass++) {
      for (FleetPool p : pools) {
        boolean hasGpu = p.gpus() > 0;
        if (pass == 0 && hasGpu != wantsGpu) {
          continue;
        }
        if (p.capacity().fits(requests)) {
          return p.name();
        }
      }
    }
    return null;
  }

  /** How many servers in all. */
  public int servers() {
    return pools.stream().mapToInt(FleetPool::servers).sum();
  }

  /** The servers, each with its boot time drawn from {@code seed}; ids {@code <pool>-<nnn>}. */
  List<SimServer> build(long seed) {
    RandomGenerator random = RandomGeneratorFactory.of(WorkloadGenerator.ALGORITHM).create(seed);
    List<SimServer> out = new ArrayList<>();
    for (FleetPool p : pools) {
      for (int i = 0; i < p.servers(); i++) {
        out.add(
            new SimServer(
                "%s-%03d".formatted(p.name(), i),
                p.name(),
                p.capacity(),
                p.idleWatts(),
                p.fullWatts(),
                p.boot().draw(random)));
      }
    }
    return out;
  }

  /** The pool named {@code name}. */
  public FleetPool pool(String name) {
    return pools.stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
  }
}
