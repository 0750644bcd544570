package io.bamel.bench.endurance;

import java.time.Duration;
import java.time.Instant;

/**
 * The simulated pool controller's decision for one pool in one cycle, with the defaults of {@code
 * PoolConfig.withDefaults()}: scale up when the demand exceeds 0.70 of the ready and coming nodes,
 * scale down when it stays below 0.30 of the ready nodes for 10 minutes and no scale-up happened in
 * the last 10 minutes, aiming at 0.55 either way; at most 5 nodes of the pool in transition at
 * once. Pure: the benchmark's stand-in for {@code PoolPlan}, which needs a Kubernetes cluster's
 * pods to decide.
 */
final class PoolScaler {

  static final double UP = 0.70;
  static final double DOWN = 0.30;
  static final double AIM = 0.55;
  static final Duration WINDOW = Duration.ofMinutes(10);
  static final Duration DELAY_AFTER_UP = Duration.ofMinutes(10);
  static final int MAX_TRANSITIONS = 5;

  /**
   * The pool's nodes as the controller counts them.
   *
   * @param size every member
   * @param ready members in state ready
   * @param comingUp members desired on and not ready yet
   * @param goingDown members desired off and not off yet
   * @param off members desired off and off (the ones a scale-up may switch on)
   * @param minNodes the pool's lower bound
   */
  record Counts(int size, int ready, int comingUp, int goingDown, int off, int minNodes) {}

  /** What the pool status remembers between cycles. */
  record Memory(Instant lowSince, Instant lastScaleUp) {
    static final Memory NONE = new Memory(null, null);
  }

  /**
   * The verdict.
   *
   * @param powerOn how many nodes to switch on
   * @param powerOff how many nodes to switch off
   * @param memory the memory after this cycle
   * @param utilization demand over ready nodes (1 when none is ready), rounded as the status shows
   * @param reason why, in the pool controller's words
   */
  record Verdict(int powerOn, int powerOff, Memory memory, double utilization, String reason) {}

  private PoolScaler() {}

  /** The decision for {@code counts} when the workload needs {@code demandNodes} nodes. */
  static Verdict decide(Counts c, double demandNodes, Memory m, Instant now) {
    double utilization = c.ready() == 0 ? 1.0 : Math.min(1.0, demandNodes / c.ready());
    utilization = Math.round(utilization * 1e4) / 1e4;
    int room = Math.max(0, MAX_TRANSITIONS - c.comingUp() - c.goingDown());
    int up = c.ready() + c.comingUp();
    if (demandNodes > UP * up) {
      int want = (int) Math.ceil(demandNodes / AIM) - up;
      int count = Math.min(Math.min(want, room), c.off());
      if (count > 0) {
        return new Verdict(
            count,
            0,
            new Memory(null, now),
            utilization,
            String.format("utilization: %.2f above %.2f", demandNodes / Math.max(1, up), UP));
      }
      return new Verdict(0, 0, new Memory(null, m.lastScaleUp()), utilization, "none");
    }
    boolean low = c.ready() > 0 && demandNodes < DOWN * c.ready();
    Instant lowSince = low ? (m.lowSince() != null ? m.lowSince() : now) : null;
    boolean longLow = low && !lowSince.plus(WINDOW).isAfter(now);
    boolean settled = m.lastScaleUp() == null || !m.lastScaleUp().plus(DELAY_AFTER_UP).isAfter(now);
    if (longLow && settled) {
      int keep = Math.max(c.minNodes(), (int) Math.ceil(demandNodes / AIM));
      int count = Math.min(c.ready() - keep, room);
      if (count > 0) {
        return new Verdict(
            0,
            count,
            new Memory(now, m.lastScaleUp()),
            utilization,
            String.format("utilization: %.2f below %.2f for %s", utilization, DOWN, "10m"));
      }
    }
    return new Verdict(0, 0, new Memory(lowSince, m.lastScaleUp()), utilization, "none");
  }
}
