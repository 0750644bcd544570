package io.bamel.bench.endurance;

import java.util.SplittableRandom;

/**
 * The demand on one pool over a simulated day, as a share of the pool's nodes that its workload
 * needs (0 to 1): low at night (about 0.15 at 03:00), high in the afternoon (about 0.85 at 15:00),
 * with each pool shifted by up to 1.5 hours, its swing scaled by 0.8 to 1.15, and two faster
 * ripples (periods of 100 and 35 minutes) standing for jobs starting and ending. Pure and
 * deterministic for a seed.
 *
 * @param swing how far this pool's demand swings around its mean, as a share of the base swing
 * @param shiftHours how much later than the base curve this pool peaks
 * @param ripplePhase1 the phase of the slow ripple
 * @param ripplePhase2 the phase of the fast ripple
 */
record DailyLoad(double swing, double shiftHours, double ripplePhase1, double ripplePhase2) {

  /** The load of pool {@code pool}, its parameters drawn from {@code seed}. */
  static DailyLoad forPool(int pool, long seed) {
    SplittableRandom random = new SplittableRandom(seed * 31 + pool);
    return new DailyLoad(
        random.nextDouble(0.8, 1.15),
        random.nextDouble(-1.5, 1.5),
        random.nextDouble(0, 2 * Math.PI),
        random.nextDouble(0, 2 * Math.PI));
  }

  /** The demand at {@code minute} of the day (0 is midnight; may exceed 1440). */
  double at(double minute) {
    double hours = minute / 60.0;
    double day = 0.5 - 0.35 * swing * Math.cos(2 * Math.PI * (hours - 3 - shiftHours) / 24);
    double ripple =
        0.04 * Math.sin(2 * Math.PI * minute / 100 + ripplePhase1)
            + 0.02 * Math.sin(2 * Math.PI * minute / 35 + ripplePhase2);
    return Math.max(0.05, Math.min(0.95, day + ripple));
  }
}
