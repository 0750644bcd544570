package io.bamel.pool;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * First-fit decreasing: which of the candidate nodes, taken in their ranked order, it takes to hold
 * a set of pending pods, after filling the room of nodes already coming up.
 */
public final class BinPacking {

  private BinPacking() {}

  /** The result: the candidates to open, in rank order, and the pods that fit nowhere. */
  public record Result(List<Member> chosen, List<PendingPod> unfit) {}

  /**
   * Packs {@code pods}, biggest first (by their largest share of {@code typicalCapacity}), into the
   * room of {@code comingUp} nodes, then of chosen candidates, opening the first candidate (in rank
   * order) that fits a pod no open node holds.
   */
  public static Result pack(
      List<PendingPod> pods,
      List<Resources> comingUp,
      List<Member> candidates,
      Resources typicalCapacity) {
    List<PendingPod> sorted = new ArrayList<>(pods);
    sorted.sort(
        Comparator.<PendingPod>comparingDouble(p -> -dominantShare(p.requests(), typicalCapacity))
            .thenComparing(PendingPod::name));
    List<Resources> bins = new ArrayList<>(comingUp);
    boolean[] used = new boolean[candidates.size()];
    List<Integer> opened = new ArrayList<>();
    List<PendingPod> unfit = new ArrayList<>();
    for (PendingPod pod : sorted) {
      int bin = firstFit(bins, pod.requests());
      if (bin < 0) {
        int next = firstFitCandidate(candidates, used, pod.requests());
        if (next < 0) {
          unfit.add(pod);
          continue;
        }
        used[next] = true;
        opened.add(next);
        bins.add(candidates.get(next).capacity());
        bin = bins.size() - 1;
      }
      bins.set(bin, bins.get(bin).minus(pod.requests()));
    }
    opened.sort(Integer::compare);
    return new Result(opened.stream().map(candidates::get).toList(), unfit);
  }

  private static int firstFit(List<Resources> bins, Resources request) {
    for (int i = 0; i < bins.size(); i++) {
      if (bins.get(i).fits(request)) {
        return i;
      }
    }
    return -1;
  }

  private static int firstFitCandidate(List<Member> candidates, boolean[] used, Resources request) {
    for (int i = 0; i < candidates.size(); i++) {
      if (!used[i] && candidates.get(i).capacity().fits(request)) {
        return i;
      }
    }
    return -1;
  }

  private static double dominantShare(Resources request, Resources typical) {
    double max = 0;
    for (var e : request.amounts().entrySet()) {
      max = Math.max(max, e.getValue() / Math.max(typical.get(e.getKey()), 1e-9));
    }
    return max;
  }
}
