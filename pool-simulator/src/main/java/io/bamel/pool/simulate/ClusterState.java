package io.bamel.pool.simulate;

import java.util.List;

/**
 * What an {@link Autoscaler} sees at one step of a simulation.
 *
 * @param now the time, seconds on the trace's clock
 * @param stepSeconds the time between steps
 * @param fleet the fleet's pools
 * @param servers every server, in fleet order (read-only views of the simulator's state)
 * @param pending the pods waiting for a node after this step's scheduling, oldest first
 */
public record ClusterState(
    long now, long stepSeconds, Fleet fleet, List<SimServer> servers, List<SimPod> pending) {

  /** The servers of pool {@code pool}. */
  public List<SimServer> servers(String pool) {
    return servers.stream().filter(s -> s.pool().equals(pool)).toList();
  }

  /** The pending pods of pool {@code pool}. */
  public List<SimPod> pending(String pool) {
    return pending.stream().filter(p -> p.pool().equals(pool)).toList();
  }
}
