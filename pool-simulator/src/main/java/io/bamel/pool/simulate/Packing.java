package io.bamel.pool.simulate;

import io.bamel.inventory.model.NodeState;
import io.bamel.pool.Resources;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * First-fit decreasing, as the rivals' documentation describes their estimates: which servers it
 * takes to hold some pods, and whether pods fit in the room other servers have. Pure.
 */
final class Packing {

  private Packing() {}

  /** The pods biggest first (CPU, then memory, then name). */
  static List<SimPod> decreasing(List<SimPod> pods) {
    List<SimPod> sorted = new ArrayList<>(pods);
    sorted.sort(
        Comparator.<SimPod>comparingDouble(p -> -p.requests().get("cpu"))
            .thenComparingDouble(p -> -p.requests().get("memory"))
            .thenComparing(SimPod::name));
    return sorted;
  }

  /**
   * The servers of {@code candidates} (in order) to open so that {@code pods} fit, after the room
   * of {@code room} (servers on their way, counted empty or with what they hold); pods that fit no
   * candidate are left out.
   */
  static List<SimServer> open(List<SimPod> pods, List<Resources> room, List<SimServer> candidates) {
    List<Resources> bins = new ArrayList<>(room);
    List<SimServer> opened = new ArrayList<>();
    boolean[] used = new boolean[candidates.size()];
    for (SimPod pod : decreasing(pods)) {
      int bin = firstFit(bins, pod.requests());
      if (bin < 0) {
        for (int i = 0; i < candidates.size(); i++) {
          if (!used[i] && candidates.get(i).capacity().fits(pod.requests())) {
            used[i] = true;
            opened.add(candidates.get(i));
            bins.add(candidates.get(i).capacity());
            bin = bins.size() - 1;
            break;
          }
        }
      }
      if (bin >= 0) {
        bins.set(bin, bins.get(bin).minus(pod.requests()));
      }
    }
    return opened;
  }

  /** Whether every pod fits, first-fit decreasing, in the free room of {@code bins}. */
  static boolean fitsIn(List<SimPod> pods, List<Resources> bins) {
    List<Resources> left = new ArrayList<>(bins);
    for (SimPod pod : decreasing(pods)) {
      int bin = firstFit(left, pod.requests());
      if (bin < 0) {
        return false;
      }
      left.set(bin, left.get(bin).minus(pod.requests()));
    }
    return true;
  }

  /**
   * The free room of the pool's Ready servers other than {@code without}, after {@code placed} pods
   * were fitted into it (updated in place by the caller's later fits).
   */
  static List<Resources> freeRoom(List<SimServer> servers, Set<SimServer> without) {
    List<Resources> room = new ArrayList<>();
    for (SimServer s : servers) {
      if (s.schedulable() && !without.contains(s)) {
        room.add(s.free());
      }
    }
    return room;
  }

  /** The servers that are off and may be switched on, in id order. */
  static List<SimServer> off(List<SimServer> servers) {
    return servers.stream().filter(s -> s.state() == NodeState.OFF && !s.desiredOn()).toList();
  }

  /** The free room of the servers on their way up. */
  static List<Resources> comingUp(List<SimServer> servers) {
    List<Resources> room = new ArrayList<>();
    for (SimServer s : servers) {
      if (s.comingUp()) {
        room.add(s.free());
      }
    }
    return room;
  }

  private static int firstFit(List<Resources> bins, Resources request) {
    for (int i = 0; i < bins.size(); i++) {
      if (bins.get(i).fits(request)) {
        return i;
      }
    }
    return -1;
  }
}
