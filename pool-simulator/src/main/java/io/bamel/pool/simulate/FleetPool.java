package io.bamel.pool.simulate;

import io.bamel.inventory.model.PoolConfig;
import io.bamel.pool.Resources;
import java.util.Objects;

/**
 * One pool of identical servers in a simulation: how many, what each offers, what each draws and
 * how long each takes to boot, and the bamel pool config its decisions use.
 *
 * <p>Draw defaults from the resources (documented in docs/pool-controller.md, "Simulation"): idle
 * {@code 60 W + 1.5 W per core + 0.1 W per GiB + 50 W per GPU}, full {@code idle + 6 W per core +
 * 300 W per GPU}. A 64-core, 512 GiB server: 207 W idle, 591 W full.
 *
 * @param name the pool's name
 * @param servers how many servers
 * @param cores CPU cores per server
 * @param memoryGiB memory per server, GiB
 * @param gpus GPUs per server
 * @param idleWatts draw when on and idle
 * @param fullWatts draw at full load
 * @param boot the power-on-to-Ready time
 * @param config bamel's config for the pool (absent values take their defaults)
 */
public record FleetPool(
    String name,
    int servers,
    double cores,
    double memoryGiB,
    int gpus,
    double idleWatts,
    double fullWatts,
    BootTime boot,
    PoolConfig config) {

  /** Checks the values. */
  public FleetPool {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(boot, "boot");
    Objects.requireNonNull(config, "config");
    if (name.isBlank() || servers <= 0 || cores <= 0 || memoryGiB <= 0 || gpus < 0) {
      throw new IllegalArgumentException(
          "pool " + name + ": needs a name, servers > 0, cores > 0, memoryGiB > 0, gpus >= 0");
    }
    if (idleWatts < 0 || fullWatts < idleWatts) {
      throw new IllegalArgumentException("pool " + name + ": needs 0 <= idleWatts <= fullWatts");
    }
  }

  /** A pool whose draw is derived from its resources and whose boot time is the default. */
  public static FleetPool of(String name, int servers, double cores, double memoryGiB, int gpus) {
    double idle = defaultIdleWatts(cores, memoryGiB, gpus);
    return new FleetPool(
        name,
        servers,
        cores,
        memoryGiB,
        gpus,
        idle,
        defaultFullWatts(idle, cores, gpus),
        BootTime.DEFAULT,
        PoolConfig.builder().build());
  }

  /** The default idle draw of a server with these resources. */
  public static double defaultIdleWatts(double cores, double memoryGiB, int gpus) {
    return 60 + 1.5 * cores + 0.1 * memoryGiB + 50.0 * gpus;
  }

  /** The default full draw of a server with these resources and idle draw. */
  public static double defaultFullWatts(double idleWatts, double cores, int gpus) {
    return idleWatts + 6 * cores + 300.0 * gpus;
  }

  /** What each server offers, as the pool controller counts it. */
  public Resources capacity() {
    return gpus > 0
        ? Resources.of("cpu", cores, "memory", memoryGiB * GIB, "gpu", gpus)
        : Resources.of("cpu", cores, "memory", memoryGiB * GIB);
  }

  /** This pool with another config. */
  public FleetPool withConfig(PoolConfig other) {
    return new FleetPool(name, servers, cores, memoryGiB, gpus, idleWatts, fullWatts, boot, other);
  }

  /** This pool with another server count. */
  public FleetPool withServers(int count) {
    return new FleetPool(name, count, cores, memoryGiB, gpus, idleWatts, fullWatts, boot, config);
  }

  static final double GIB = 1024.0 * 1024 * 1024;
}
