package io.bamel.pool.simulate;

import io.bamel.inventory.model.NodeState;
import io.bamel.pool.Resources;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Test scope, an upper bound (issue 34, docs/pool-controller.md "A forecast's upper bound"): an
 * autoscaler that keeps, in one pool, free room on its Ready and coming-up servers of at least what
 * a {@link ArrivalForecast} says arrives within one boot time, on top of another autoscaler's
 * decisions (bamel at a config with no headroom of its own, say). Each step it takes the inner
 * decision, drops each power-off that would leave less than the reserve free, and switches on, in
 * fleet order, as many off servers as the reserve still lacks. Free room is capacity not requested
 * on the servers Ready and schedulable or coming up, and on those the inner decision switches on,
 * less what the pending pods request: the room a pod arriving within a boot time can be bound to;
 * with a chunk size, only whole chunks of free cores on each server count (free cores spread over
 * the servers in pieces smaller than the pods arriving hold none of them).
 *
 * <p>It is not bamel's policy: it reads the simulator's servers directly and the forecast is given,
 * not learned. It answers one question: whether a reserve sized to the arrivals, even with the
 * arrival profile known exactly, draws less than a reserve that is a fixed share of capacity.
 *
 * @param name the name in the results
 * @param inner the autoscaler whose decisions the reserve amends
 * @param pool the pool the reserve is kept in
 * @param forecast what to keep free, by time
 * @param chunkCores count on each server only whole chunks of this many free cores (0: every free
 *     core): the room a pod of that size can use, as placeholders of that size reserve it
 */
record ArrivalReserve(
    String name, Autoscaler inner, String pool, ArrivalForecast forecast, double chunkCores)
    implements Autoscaler {

  /** {@code inner}'s decisions in {@code pool}, with the reserve {@code forecast} gives. */
  ArrivalReserve(String name, Autoscaler inner, String pool, ArrivalForecast forecast) {
    this(name, inner, pool, forecast, 0);
  }

  @Override
  public Decision decide(ClusterState state) {
    Decision d = inner.decide(state);
    Resources reserve = forecast.reserve(state.now());
    if (reserve.isEmpty()) {
      return d;
    }
    Set<String> on = new HashSet<>(d.powerOn());
    // Free room is capacity less requests: kept as the two sums (Resources holds no negative).
    Resources.Sum capacity = new Resources.Sum();
    Resources.Sum wanted = new Resources.Sum().add(reserve);
    List<SimServer> off = new ArrayList<>();
    List<SimServer> servers = state.servers(pool);
    for (SimServer s : servers) {
      if (on.contains(s.id())) {
        capacity.add(s.capacity());
      } else if (s.schedulable() || s.comingUp()) {
        capacity.add(s.capacity());
        wanted.add(s.requested());
        wanted.add("cpu", stranded(s));
      } else if (s.state() == NodeState.OFF && !s.desiredOn()) {
        off.add(s);
      } else {
        wanted.add(s.requested()); // draining: its pods come back to the others
      }
    }
    for (SimPod p : state.pending(pool)) {
      wanted.add(p.requests());
    }
    Resources need = wanted.build();
    Resources have = capacity.build();
    List<String> powerOff = new ArrayList<>();
    for (String id : d.powerOff()) {
      SimServer s = servers.stream().filter(x -> x.id().equals(id)).findFirst().orElse(null);
      if (s == null) {
        powerOff.add(id); // another pool's: not this reserve's business
        continue;
      }
      Resources after = have.minus(s.capacity());
      Resources needAfter = need.minus(Resources.of("cpu", stranded(s)));
      if (after.fits(needAfter)) {
        powerOff.add(id);
        have = after;
        need = needAfter;
      }
    }
    List<String> powerOn = new ArrayList<>(d.powerOn());
    for (SimServer s : off) {
      if (have.fits(need)) {
        break;
      }
      powerOn.add(s.id());
      have = have.plus(s.capacity());
    }
    return new Decision(powerOn, powerOff);
  }

  /** The free cores of {@code s} short of a whole chunk: room no chunk-sized pod can use. */
  private double stranded(SimServer s) {
    double free = s.free().get("cpu");
    return chunkCores > 0 ? free - Math.floor(free / chunkCores) * chunkCores : 0;
  }
}
