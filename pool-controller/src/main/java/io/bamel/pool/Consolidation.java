package io.bamel.pool;

import io.bamel.inventory.model.ResourceCapacity;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/**
 * Consolidation ({@code consolidate: true}): which ready node of a pool to switch off because every
 * pod a drain would move off it fits in the free room of the pool's other ready nodes. Pure.
 *
 * <ul>
 *   <li>Candidates: the nodes the pool may switch off ({@link Member#canBePoweredOff()}) whose pods
 *       are known ({@link Member#pods()}), in the order of the most idle power freed per pod moved
 *       ({@link Member#idleWatts()}, or the same for every node when one has none; so, among
 *       identical nodes, the fewest pods first), then {@link NodeSelector#powerOff}'s order.
 *   <li>A node without pods to move (its DaemonSet and mirror pods stay) fits at once; several such
 *       nodes go together, up to {@code room}.
 *   <li>Otherwise the candidate's pods, biggest first (their largest share of the node's capacity
 *       over the considered resources and {@code gpu}), go first-fit into the free room (capacity
 *       less requests) of the other ready nodes, in the members' order; one pod that fits nowhere
 *       rules the node out. At most {@link #MAX_PACKS} candidates are packed per decision, so a
 *       cycle costs at most that many times one node's pods times the pool's ready nodes.
 *   <li>Every node chosen leaves the pool's utilization (its capacity gone, every request kept)
 *       below {@code scaleUpThreshold}, and {@code held} (the demand's trend) not objecting: so the
 *       move does not call for a scale-up at once.
 * </ul>
 */
final class Consolidation {

  /** The most candidates whose pods are packed in one decision. */
  static final int MAX_PACKS = 8;

  private Consolidation() {}

  /**
   * The outcome: the nodes to switch off (empty when none), how many pods they move, and, when
   * none, why ({@code would-flap}, {@code demand-rising} or {@code nothing-fits}).
   */
  record Plan(List<Member> nodes, int moved, String held) {}

  /**
   * Chooses the nodes to switch off.
   *
   * @param members the pool's members
   * @param resources the considered resources
   * @param util the pool's utilization now
   * @param scaleUpThreshold the utilization no removal may reach
   * @param room how many nodes may be switched off at once (only empty ones go together)
   * @param held whether the demand's trend holds the removal of this much capacity
   */
  static Plan choose(
      List<Member> members,
      List<String> resources,
      Utilization util,
      double scaleUpThreshold,
      int room,
      Predicate<Resources> held) {
    List<Member> candidates = new ArrayList<>();
    for (Member m : NodeSelector.powerOff(members, resources)) {
      if (m.pods() != null) {
        candidates.add(m);
      }
    }
    if (candidates.isEmpty() || room <= 0) {
      return new Plan(List.of(), 0, "nothing-fits");
    }
    boolean allWatts = candidates.stream().allMatch(m -> m.idleWatts() != null);
    // Stable: ties keep NodeSelector's order (least utilized, fullest rack, id).
    candidates.sort(Comparator.comparingDouble(m -> -freedPerPod(m, allWatts)));

    String[] dims = dimensions(resources);
    List<Member> ready = new ArrayList<>();
    for (Member m : members) {
      if (m.isReady()) {
        ready.add(m);
      }
    }
    double[] free = new double[ready.size() * dims.length];
    for (int t = 0; t < ready.size(); t++) {
      Member m = ready.get(t);
      for (int d = 0; d < dims.length; d++) {
        free[t * dims.length + d] = m.capacity().get(dims[d]) - m.requested().get(dims[d]);
      }
    }

    List<Member> chosen = new ArrayList<>();
    Resources removed = Resources.NONE;
    String why = "nothing-fits";
    int packs = 0;
    for (Member m : candidates) {
      boolean empty = m.pods().isEmpty();
      if (!chosen.isEmpty() && !empty) {
        break;
      }
      Resources without = removed.plus(m.capacity());
      if (util.without(without).max(resources) >= scaleUpThreshold) {
        why = "would-flap";
        continue;
      }
      if (held.test(without)) {
        why = "demand-rising";
        continue;
      }
      if (!empty) {
        if (packs++ >= MAX_PACKS) {
          break;
        }
        if (!fits(m, ready, free, dims)) {
          continue;
        }
        return new Plan(List.of(m), m.pods().size(), null);
      }
      chosen.add(m);
      removed = without;
      if (chosen.size() >= room) {
        break;
      }
    }
    return chosen.isEmpty() ? new Plan(List.of(), 0, why) : new Plan(List.copyOf(chosen), 0, null);
  }

  /** The idle power switching {@code m} off frees, per pod it moves (empty: the most). */
  private static double freedPerPod(Member m, boolean byWatts) {
    int pods = m.pods().size();
    if (pods == 0) {
      return Double.POSITIVE_INFINITY;
    }
    double watts = byWatts ? m.idleWatts() : 1.0;
    return Math.round(watts / pods * 1e6) / 1e6;
  }

  /** The considered resources and {@code gpu}: what a pod must find room for. */
  private static String[] dimensions(List<String> resources) {
    List<String> dims = new ArrayList<>(resources);
    if (!dims.contains(ResourceCapacity.GPU)) {
      dims.add(ResourceCapacity.GPU);
    }
    return dims.toArray(String[]::new);
  }

  /**
   * Whether every pod of {@code m} fits, biggest first, first-fit into the free room of the ready
   * nodes other than {@code m} ({@code free}, one row of {@code dims} per ready node; not changed).
   *
   * <p>A first-fit decreasing of its own beside {@link BinPacking#pack}, on purpose: the two order
   * and fit pods by different rules, and the rules decide which node a pool switches off. Here a
   * pod's size is its largest share of this node's capacity (a request for a resource the node
   * lacks comes first), ties keep the node's pod order, and only the considered resources and
   * {@code gpu} must fit, into a fixed set of nodes; {@code pack} sizes pods by their share of the
   * pool's typical capacity, breaks ties by name, checks every requested resource and opens
   * candidate nodes as it goes. Either one's rules in the other's place would place some pods
   * elsewhere, and with them move the pool simulator's pinned figures (docs/pool-controller.md);
   * what the two could share is the ten-line placement loop. This one also runs on flat arrays, up
   * to {@link #MAX_PACKS} times per decision, so a cycle allocates no {@link Resources} per pod.
   */
  static boolean fits(Member m, List<Member> ready, double[] free, String[] dims) {
    int n = dims.length;
    List<Resources> pods = m.pods();
    double[] need = new double[pods.size() * n];
    Integer[] order = new Integer[pods.size()];
    double[] size = new double[pods.size()];
    for (int p = 0; p < pods.size(); p++) {
      order[p] = p;
      for (int d = 0; d < n; d++) {
        double v = pods.get(p).get(dims[d]);
        need[p * n + d] = v;
        double cap = m.capacity().get(dims[d]);
        if (cap > 0) {
          size[p] = Math.max(size[p], v / cap);
        } else if (v > 0) {
          size[p] = Double.POSITIVE_INFINITY;
        }
      }
    }
    Arrays.sort(order, Comparator.comparingDouble(p -> -size[p]));
    double[] left = free.clone();
    int self = ready.indexOf(m);
    for (int p : order) {
      boolean placed = false;
      for (int t = 0; t < ready.size() && !placed; t++) {
        if (t == self) {
          continue;
        }
        int row = t * n;
        boolean room = true;
        for (int d = 0; d < n; d++) {
          if (left[row + d] + 1e-9 < need[p * n + d]) {
            room = false;
            break;
          }
        }
        if (room) {
          for (int d = 0; d < n; d++) {
            left[row + d] -= need[p * n + d];
          }
          placed = true;
        }
      }
      if (!placed) {
        return false;
      }
    }
    return true;
  }
}
