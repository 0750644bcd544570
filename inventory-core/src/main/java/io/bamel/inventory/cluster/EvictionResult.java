package io.bamel.inventory.cluster;

/**
 * The answer to one eviction.
 *
 * @param pod the pod
 * @param outcome what happened
 * @param message the API server's explanation of a refusal, else a short note
 */
public record EvictionResult(PodRef pod, Status outcome, String message) {

  /** What an eviction did. */
  public enum Status {
    /** The eviction was accepted: the pod is being deleted. */
    EVICTED,
    /** There was no such pod (any more). */
    GONE,
    /** Refused because a PodDisruptionBudget allows no disruption now (HTTP 429); retry later. */
    BLOCKED_BY_BUDGET,
    /** Refused for another reason (403, 409, 422, ...), as {@link #message()} says. */
    REFUSED
  }

  /** Whether the pod is gone or going. */
  public boolean done() {
    return outcome == Status.EVICTED || outcome == Status.GONE;
  }
}
