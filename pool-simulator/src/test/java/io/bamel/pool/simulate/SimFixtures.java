package io.bamel.pool.simulate;

import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.pool.Resources;
import java.util.ArrayList;
import java.util.List;

/** Hand-built clusters for the rivals' rule tests: a pool "cpu" of 64-core, 512 GiB servers. */
final class SimFixtures {

  static final double GIB = 1024.0 * 1024 * 1024;

  final Fleet fleet;
  final List<SimServer> servers = new ArrayList<>();
  final List<SimPod> pending = new ArrayList<>();
  private int pods;

  SimFixtures(int count) {
    fleet = new Fleet(List.of(FleetPool.of("cpu", count, 64, 512, 0)));
    servers.addAll(fleet.build(1));
  }

  /**
   * A fleet of one pool "cpu" of {@code count} 64-core, 512 GiB servers drawing 207 W idle and 591
   * W at full load, each {@code bootSeconds} from power-on to Ready, under bamel's default config.
   */
  static Fleet cpuFleet(int count, long bootSeconds) {
    return new Fleet(
        List.of(
            new FleetPool(
                "cpu",
                count,
                64,
                512,
                0,
                207,
                591,
                new BootTime(bootSeconds, bootSeconds),
                PoolConfig.builder().build())));
  }

  SimServer server(int i) {
    return servers.get(i);
  }

  /** Server i Ready since {@code since}. */
  SimFixtures ready(int i, long since) {
    SimServer s = servers.get(i);
    s.desiredOn(true);
    s.state(NodeState.READY, since);
    return this;
  }

  /** Server i switched on at {@code since}, not Ready yet. */
  SimFixtures booting(int i, long since) {
    SimServer s = servers.get(i);
    s.desiredOn(true);
    s.state(NodeState.POWERING_ON, since);
    return this;
  }

  /** A pod of {@code cores} (4 GiB a core) bound to server i at {@code at}. */
  SimFixtures pod(int i, double cores, long at) {
    SimPod pod = newPod(cores);
    pod.bind(servers.get(i), at, true);
    servers.get(i).add(pod, at);
    return this;
  }

  /** A pending pod of {@code cores}. */
  SimFixtures pending(double cores) {
    pending.add(newPod(cores));
    return this;
  }

  private SimPod newPod(double cores) {
    return new SimPod(
        "p" + pods++, Resources.of("cpu", cores, "memory", cores * 4 * GIB), "cpu", 0, 3600);
  }

  ClusterState at(long now) {
    return new ClusterState(now, 10, fleet, List.copyOf(servers), List.copyOf(pending));
  }
}
