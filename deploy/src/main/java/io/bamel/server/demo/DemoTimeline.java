package io.bamel.server.demo;

import io.bamel.inventory.model.NodeTimeouts;
import java.time.Duration;

/**
 * Every duration that decides when something happens in the demo: the load's period, the simulated
 * machines' power delay and join delay, the simulated cluster's tick, the node controller's
 * intervals and backoff, the pool controller's interval, the pools' windows and cooldown, and the
 * pools' node timeouts. {@link #standard} is the demo as a person runs it (scale-ups and
 * scale-downs within two minutes); {@link #faster} divides every one of these durations by the same
 * factor, so the same sequence of decisions and transitions happens in a fraction of the time (for
 * tests). Durations that only bound failures (the BMC call timeout, etcd leases) are not part of
 * the timeline.
 *
 * @param loadPeriod one rise and fall of the general pool's load (the GPU pool's is 5/4 of it)
 * @param tick how often the simulated cluster registers machines and schedules pods
 * @param powerDelay how long a simulated machine takes to switch power
 * @param joinDelay how long a powered-on machine takes to turn Ready in the simulated cluster
 * @param syncInterval the node controller's periodic sync
 * @param pollInterval the node controller's poll of nodes in transition
 * @param backoffBase the node controller's first retry backoff
 * @param backoffMax the node controller's longest retry backoff
 * @param poolInterval time between pool decisions
 * @param scaleDownUnneededTime the pools' {@code scaleDownUnneededTime}
 * @param delayAfterScaleUp the pools' {@code delayAfterScaleUp}
 * @param scaleUpCooldown the pools' {@code scaleUpCooldown}
 * @param timeouts the pools' node timeouts (power-on, join, drain, power-off)
 */
public record DemoTimeline(
    Duration loadPeriod,
    Duration tick,
    Duration powerDelay,
    Duration joinDelay,
    Duration syncInterval,
    Duration pollInterval,
    Duration backoffBase,
    Duration backoffMax,
    Duration poolInterval,
    Duration scaleDownUnneededTime,
    Duration delayAfterScaleUp,
    Duration scaleUpCooldown,
    NodeTimeouts timeouts) {

  /** The demo's own timeline with a load period of {@code loadPeriod} (90 s by default). */
  public static DemoTimeline standard(Duration loadPeriod) {
    return new DemoTimeline(
        loadPeriod,
        Duration.ofMillis(500),
        Duration.ofSeconds(3),
        Duration.ofSeconds(4),
        Duration.ofSeconds(10),
        Duration.ofSeconds(1),
        Duration.ofMillis(500),
        Duration.ofSeconds(5),
        Duration.ofSeconds(2),
        Duration.ofSeconds(10),
        Duration.ofSeconds(10),
        Duration.ofMinutes(2),
        NodeTimeouts.of(
            Duration.ofSeconds(60),
            Duration.ofSeconds(60),
            Duration.ofSeconds(60),
            Duration.ofSeconds(30)));
  }

  /**
   * This timeline {@code factor} times faster: every duration divided by {@code factor} (1: this
   * timeline).
   *
   * @throws IllegalArgumentException when {@code factor} is not at least 1
   */
  public DemoTimeline faster(int factor) {
    if (factor < 1) {
      throw new IllegalArgumentException("speed must be at least 1, not " + factor);
    }
    return new DemoTimeline(
        loadPeriod.dividedBy(factor),
        tick.dividedBy(factor),
        powerDelay.dividedBy(factor),
        joinDelay.dividedBy(factor),
        syncInterval.dividedBy(factor),
        pollInterval.dividedBy(factor),
        backoffBase.dividedBy(factor),
        backoffMax.dividedBy(factor),
        poolInterval.dividedBy(factor),
        scaleDownUnneededTime.dividedBy(factor),
        delayAfterScaleUp.dividedBy(factor),
        scaleUpCooldown.dividedBy(factor),
        NodeTimeouts.of(
            timeouts.powerOn().dividedBy(factor),
            timeouts.join().dividedBy(factor),
            timeouts.drain().dividedBy(factor),
            timeouts.powerOff().dividedBy(factor)));
  }
}
