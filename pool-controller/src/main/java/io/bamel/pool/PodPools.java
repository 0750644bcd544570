package io.bamel.pool;

import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.ResourceCapacity;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which pool serves each pending pod: exactly one, or none. Pure and deterministic.
 *
 * <ol>
 *   <li>The pools the pod may land in ({@link PodPlacement}: node selector and required affinity
 *       both, terms ORed, expressions ANDed), among the configured pools. A pod that may also run
 *       on a node of no pool (it does not require one: it selects nothing, or only excludes pools
 *       with {@code NotIn}) is served only by pools marked {@code default}; it never makes a
 *       specialised pool grow.
 *   <li>Of those, default pools first, then in name order, the first that can grow by a node able
 *       to hold the pod's requests (in the pool's considered resources and {@code gpu}): a node
 *       already coming up, or an off node it may switch on within {@code maxNodes}. When none can,
 *       the first of them (its decision then says why nothing is switched on).
 * </ol>
 *
 * <p>So a pod that several pools could take makes one of them scale up, never all of them; the
 * choice is made again every cycle, so when that pool can no longer grow for it, the next one does.
 */
public final class PodPools {

  private PodPools() {}

  /**
   * A configured pool as the assignment sees it.
   *
   * @param name the pool
   * @param defaultPool whether it is marked {@code default}
   * @param considered the resources its config considers ({@code gpu} is always added)
   * @param growth the distinct capacities of the nodes it can have soon: coming up, or off and
   *     switchable within {@code maxNodes}
   */
  public record Pool(
      String name, boolean defaultPool, Set<String> considered, Set<Resources> growth) {

    /** Copies the sets, adding {@code gpu} to the considered resources. */
    public Pool {
      Set<String> names = new HashSet<>(considered);
      names.add(ResourceCapacity.GPU);
      considered = Set.copyOf(names);
      growth = Set.copyOf(growth);
    }

    /** The pool {@code name} with {@code config} (defaults apply) and these members. */
    public static Pool of(String name, PoolConfig config, List<Member> members) {
      PoolConfig c = config.withDefaults();
      long active = members.stream().filter(Member::isCapacity).count();
      boolean mayGrow = active < c.maxNodes();
      Set<Resources> growth = new HashSet<>();
      for (Member m : members) {
        if (m.isComingUp() || mayGrow && m.canBePoweredOn()) {
          growth.add(m.capacity());
        }
      }
      return new Pool(
          name, Boolean.TRUE.equals(c.defaultPool()), new HashSet<>(c.resources()), growth);
    }

    /** Whether one of the nodes it can have soon holds {@code requests}. */
    boolean canHold(Resources requests) {
      Map<String, Double> relevant = new HashMap<>();
      requests
          .amounts()
          .forEach(
              (k, v) -> {
                if (considered.contains(k)) {
                  relevant.put(k, v);
                }
              });
      Resources r = new Resources(relevant);
      return growth.stream().anyMatch(c -> c.fits(r));
    }
  }

  /** The pending pods each pool serves: every pool a key, in name order; pods in their order. */
  public static Map<String, List<KubePod>> assign(List<KubePod> pods, List<Pool> pools) {
    List<Pool> order = preferenceOrder(pools);
    Map<String, List<KubePod>> out = new LinkedHashMap<>();
    pools.stream().map(Pool::name).sorted().forEach(n -> out.put(n, new ArrayList<>()));
    for (KubePod pod : pods) {
      String pool = poolFor(PodPlacement.of(pod), KubeResources.of(pod.requests()), order);
      if (pool != null) {
        out.get(pool).add(pod);
      }
    }
    return out;
  }

  /** Default pools first, then by name. */
  static List<Pool> preferenceOrder(List<Pool> pools) {
    List<Pool> order = new ArrayList<>(pools);
    order.sort(Comparator.comparing((Pool p) -> !p.defaultPool()).thenComparing(Pool::name));
    return order;
  }

  /**
   * The pool that serves a pod placed by {@code placement} asking {@code requests}, from pools in
   * {@linkplain #preferenceOrder preference order}; null when none does.
   */
  static String poolFor(PodPlacement placement, Resources requests, List<Pool> ordered) {
    boolean needsNoPool = placement.needsNoPool();
    Pool first = null;
    for (Pool p : ordered) {
      if ((needsNoPool && !p.defaultPool()) || !placement.allows(p.name())) {
        continue;
      }
      if (p.canHold(requests)) {
        return p.name();
      }
      if (first == null) {
        first = p;
      }
    }
    return first == null ? null : first.name();
  }
}
